//! Duplicates by hand through the API: `POST /api/captions/{id}/split` (some of a
//! caption's variants become a caption of their own) and `POST
//! /api/captions/{id}/merge` (another caption's variants join this one). Editors
//! only, with the CSRF token when made with the session cookie; an `If-Match` is
//! checked when sent, as a save's is.

use axum::Json;
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use cairn_store::{ArchiveWriter, MAX_NOTE_BYTES, Regroup, Regrouped, Role};
use serde::Deserialize;
use serde_json::json;

use crate::auth::Caller;
use crate::edit::{if_match, with_etag};
use crate::writer::refused;
use crate::{ApiError, ApiResult, AppState, parse_id};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SplitBody {
    variants: Vec<i64>,
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MergeBody {
    other: i64,
    note: Option<String>,
}

type Body<T> = Result<Json<T>, axum::extract::rejection::JsonRejection>;

/// Runs `op` with the archive's writer, in the writer's queue.
async fn with_writer(
    s: &AppState,
    op: impl FnOnce(&mut ArchiveWriter) -> cairn_store::Result<Regrouped> + Send + 'static,
) -> ApiResult<Regrouped> {
    let deadline = std::time::Instant::now() + s.timeout;
    s.writer
        .run(deadline, move |h| op(&mut h.archive).map_err(refused))
        .await
}

fn answer(id: i64, done: Regrouped) -> Response {
    match done {
        Regrouped::Done {
            caption,
            other,
            review,
        } => {
            let version = review.version;
            let body = json!({"caption": caption, "other": other, "review": review});
            with_etag(StatusCode::OK, body, version)
        }
        Regrouped::Stale(r) => {
            let body = json!({"error": {"code": "stale", "message": format!(
                "caption {id} was changed by someone else; it is now at version {}: nothing was changed",
                r.version
            )}, "review": r});
            with_etag(StatusCode::PRECONDITION_FAILED, body, r.version)
        }
    }
}

/// The user, the caption and the version a request names.
fn request(
    caller: &Caller,
    headers: &HeaderMap,
    raw: &str,
    note: &Option<String>,
) -> ApiResult<(String, i64, Option<u64>)> {
    let user = caller.may_write(Role::Editor, headers)?.name.clone();
    let id = parse_id(raw)?;
    let expected = match headers.get(header::IF_MATCH) {
        Some(_) => Some(if_match(headers)?),
        None => None,
    };
    if note.as_ref().is_some_and(|n| n.len() > MAX_NOTE_BYTES) {
        return Err(ApiError::BadRequest(format!(
            "the note is over {MAX_NOTE_BYTES} bytes"
        )));
    }
    Ok((user, id, expected))
}

/// `POST /api/captions/{id}/split`.
pub(crate) async fn split(
    State(s): State<AppState>,
    Extension(caller): Extension<Caller>,
    Path(raw): Path<String>,
    headers: HeaderMap,
    body: Body<SplitBody>,
) -> ApiResult<Response> {
    caller.may_write(Role::Editor, &headers)?;
    let Json(b) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let (user, id, expected) = request(&caller, &headers, &raw, &b.note)?;
    let done = with_writer(&s, move |w| {
        let who = Regroup {
            user: &user,
            note: b.note.as_deref(),
            expected,
        };
        w.split_caption(id, &b.variants, who)
    })
    .await?;
    Ok(answer(id, done))
}

/// `POST /api/captions/{id}/merge`.
pub(crate) async fn merge(
    State(s): State<AppState>,
    Extension(caller): Extension<Caller>,
    Path(raw): Path<String>,
    headers: HeaderMap,
    body: Body<MergeBody>,
) -> ApiResult<Response> {
    caller.may_write(Role::Editor, &headers)?;
    let Json(b) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let (user, id, expected) = request(&caller, &headers, &raw, &b.note)?;
    let done = with_writer(&s, move |w| {
        let who = Regroup {
            user: &user,
            note: b.note.as_deref(),
            expected,
        };
        w.merge_captions(id, b.other, who)
    })
    .await?;
    Ok(answer(id, done))
}
