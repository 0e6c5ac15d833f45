//! Corrections through the API: `PATCH /api/captions/{id}` (an editor's save, made
//! against the version its `If-Match` names, refused with 412 and the current caption
//! when another save came first) and `GET /api/captions/{id}/history`. A caption's
//! version is its ETag, `"v3"`.

use axum::Json;
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use cairn_store::{Archive, CaptionView, Edit, MAX_NOTE_BYTES, Revision, Role, Saved};
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::writer::refused;
use crate::{ApiError, ApiResult, AppState, blocking, parse_id};

/// The ETag of a caption at `version`.
pub(crate) fn etag(version: u64) -> HeaderValue {
    HeaderValue::from_str(&format!("\"v{version}\"")).unwrap_or(HeaderValue::from_static("\"v0\""))
}

/// The version an `If-Match` names (`"v3"`, or weak, `W/"v3"`).
pub(crate) fn if_match(headers: &HeaderMap) -> ApiResult<u64> {
    let Some(v) = headers.get(header::IF_MATCH) else {
        return Err(ApiError::PreconditionRequired(
            "a save needs If-Match with the ETag GET /api/captions/{id} gave".into(),
        ));
    };
    v.to_str()
        .ok()
        .map(|v| v.trim().trim_start_matches("W/"))
        .and_then(|v| v.strip_prefix("\"v")?.strip_suffix('"')?.parse().ok())
        .ok_or_else(|| {
            ApiError::BadRequest("If-Match is not an ETag of this server (\"v3\")".into())
        })
}

/// A save's body: record fields to change, and `verified`, `disputed`, `note`.
fn edit_of(body: Value) -> ApiResult<Edit> {
    let Value::Object(map) = body else {
        return Err(ApiError::BadRequest("the body is not a JSON object".into()));
    };
    let mut edit = Edit::default();
    let flag = |k: &str, v: Value| match v {
        Value::Bool(b) => Ok(Some(b)),
        Value::Null => Ok(None),
        _ => Err(ApiError::BadRequest(format!("{k} is true, false or null"))),
    };
    for (k, v) in map {
        match k.as_str() {
            "verified" => edit.verified = flag(&k, v)?,
            "disputed" => edit.disputed = flag(&k, v)?,
            "note" => match v {
                Value::String(n) if n.len() <= MAX_NOTE_BYTES => edit.note = Some(n),
                Value::String(_) => {
                    return Err(ApiError::BadRequest(format!(
                        "the note is over {MAX_NOTE_BYTES} bytes"
                    )));
                }
                Value::Null => {}
                _ => return Err(ApiError::BadRequest("note is a string".into())),
            },
            _ => edit.fields.push((k, v)),
        }
    }
    Ok(edit)
}

fn caption_of(a: &Archive, id: i64) -> ApiResult<CaptionView> {
    a.caption(id)?
        .ok_or_else(|| ApiError::NotFound(format!("no caption {id}")))
}

/// A caption with its ETag.
pub(crate) fn with_etag(status: StatusCode, body: Value, version: u64) -> Response {
    let mut res = (status, Json(body)).into_response();
    res.headers_mut().insert(header::ETAG, etag(version));
    res
}

/// `PATCH /api/captions/{id}`.
pub(crate) async fn patch_caption(
    State(s): State<AppState>,
    Extension(caller): Extension<Caller>,
    Path(raw): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Value>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Response> {
    let user = caller.may_write(Role::Editor, &headers)?.name.clone();
    let id = parse_id(&raw)?;
    let expected = if_match(&headers)?;
    let Json(body) = body.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let edit = edit_of(body)?;
    let reader = s.archive.clone();
    let saved = save(&s, id, edit, user, expected).await?;
    let view = blocking(move || caption_of(&reader, id)).await?;
    let to_json =
        |v: &CaptionView| serde_json::to_value(v).map_err(|e| ApiError::Internal(e.to_string()));
    Ok(match saved {
        Saved::Done(r) => with_etag(StatusCode::OK, to_json(&view)?, r.version),
        Saved::Stale(r) => {
            let body = json!({
                "error": {
                    "code": "stale",
                    "message": format!(
                        "caption {id} was changed by someone else since version {expected}; it is now at version {}: nothing was saved, look at the current values and save again",
                        r.version
                    ),
                },
                "current": to_json(&view)?,
            });
            with_etag(StatusCode::PRECONDITION_FAILED, body, r.version)
        }
    })
}

/// Stores `edit` of caption `id` by `user`, made against version `expected`, in the
/// writer's queue.
pub(crate) async fn save(
    s: &AppState,
    id: i64,
    edit: Edit,
    user: String,
    expected: u64,
) -> ApiResult<Saved> {
    let deadline = std::time::Instant::now() + s.timeout;
    s.writer
        .run(deadline, move |h| {
            h.edit(|w| w.save_edit(id, &edit, &user, expected))
                .map_err(refused)
        })
        .await
}

/// `GET /api/captions/{id}/history`: the caption's revisions, oldest first.
pub(crate) async fn history(
    State(s): State<AppState>,
    Path(raw): Path<String>,
) -> ApiResult<Json<Vec<Revision>>> {
    let id = parse_id(&raw)?;
    let a = s.archive.clone();
    blocking(move || {
        caption_of(&a, id)?;
        Ok(Json(a.history(id)?))
    })
    .await
}

/// `GET /api/users`: the accounts, for admins.
pub(crate) async fn users(
    State(s): State<AppState>,
    Extension(caller): Extension<Caller>,
) -> ApiResult<Json<Vec<cairn_store::Account>>> {
    caller.at_least(Role::Admin)?;
    let Some(acc) = s.auth.accounts.clone() else {
        return Err(ApiError::NotFound("this server has no accounts".into()));
    };
    blocking(move || Ok(Json(acc.users()?))).await
}
