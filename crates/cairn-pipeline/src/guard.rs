//! The boundary around each source: whatever goes wrong while one source is read,
//! rendered or extracted (an error, a panic) stops that source alone, names it, and
//! leaves the rest of its batch to be stored.

use std::panic::{AssertUnwindSafe, catch_unwind};

use cairn_ingest::{Input, RawSource, ReadOptions};

/// A source that could not be ingested: the message naming it, and its uri and sha256
/// when its bytes were read (then the archive remembers it as rejected).
#[derive(Debug)]
pub(crate) struct Failed {
    pub message: String,
    pub id: Option<(String, String)>,
    /// An earlier run rejected it: skipped, not read again.
    pub before: bool,
    /// Not a failure: part of an input held nothing to ingest (the file, what was
    /// skipped). Reported as a warning; nothing is rejected.
    pub notice: Option<Box<(String, String)>>,
}

/// What a notice of the reader says, apart from the failures.
fn notice_of(e: &cairn_ingest::Error) -> Option<Box<(String, String)>> {
    match e {
        cairn_ingest::Error::Notice { path, message } => {
            Some(Box::new((path.clone(), message.clone())))
        }
        _ => None,
    }
}

impl From<cairn_ingest::Error> for Failed {
    fn from(e: cairn_ingest::Error) -> Self {
        Failed {
            message: e.to_string(),
            id: None,
            before: false,
            notice: notice_of(&e),
        }
    }
}

impl Failed {
    /// A source an earlier run rejected for `why`, skipped.
    pub(crate) fn before(raw: &RawSource, why: &str) -> Self {
        Self::before_named(&cairn_ingest::quoted(&raw.name), why)
    }

    /// [`Failed::before`] of a source named `name` (quoted already).
    pub(crate) fn before_named(name: &str, why: &str) -> Self {
        Failed {
            message: format!(
                "{name}: skipped, rejected by an earlier run ({}); --retry-rejected reads it \
                 again",
                cairn_ingest::quoted(why)
            ),
            id: None,
            before: true,
            notice: None,
        }
    }
}

/// What reading `input` failed with. A file that is itself over a size bound (a
/// decompression bomb, a file larger than a source may be) was never read whole, so it
/// has no sha256 of its content: it is named by the sha256 of the file's own bytes,
/// hashed as a stream, so that the archive remembers it as rejected and a re-run skips
/// it before decompressing it again (the preparer's `rejected_file`).
pub(crate) fn failed_reading(input: &Input, e: cairn_ingest::Error) -> Failed {
    let whole = match (&e, input) {
        (cairn_ingest::Error::TooLarge { path, .. }, Input::File(p))
            if *path == cairn_ingest::quoted_path(p) =>
        {
            Some(p)
        }
        _ => None,
    };
    let mut failed = Failed::from(e);
    if let Some(p) = whole
        && let Ok(sha256) = cairn_ingest::file_sha256(p)
    {
        failed.id = Some((cairn_ingest::file_uri(p), sha256));
    }
    failed
}

/// What a panic said.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

/// Runs `f` on the source `raw` names; an error or a panic becomes a [`Failed`] that
/// names the source and carries its uri and sha256.
pub(crate) fn source<T>(
    raw: RawSource,
    f: impl FnOnce(RawSource) -> Result<T, cairn_ingest::Error>,
) -> Result<T, Failed> {
    let name = raw.name.clone();
    let id = Some((raw.uri.clone(), raw.sha256.clone()));
    match catch_unwind(AssertUnwindSafe(|| f(raw))) {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(e)) => {
            let notice = notice_of(&e);
            Err(Failed {
                message: e.to_string(),
                // A notice rejects nothing, so the archive remembers nothing of it.
                id: if notice.is_some() { None } else { id },
                before: false,
                notice,
            })
        }
        Err(p) => Err(Failed {
            message: format!(
                "{}: reading it failed ({}); skipped",
                cairn_ingest::quoted(&name),
                panic_text(&*p)
            ),
            id,
            before: false,
            notice: None,
        }),
    }
}

/// [`source`] for work that gives no error of its own (extraction).
pub(crate) fn infallible<T>(
    name: &str,
    id: (String, String),
    f: impl FnOnce() -> T,
) -> Result<T, Failed> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| Failed {
        message: format!(
            "{}: extracting its captions failed ({}); skipped",
            cairn_ingest::quoted(name),
            panic_text(&*p)
        ),
        id: Some(id),
        before: false,
        notice: None,
    })
}

/// The name of an input in messages.
fn input_name(input: &Input) -> String {
    match input {
        Input::File(p) => cairn_ingest::quoted_path(p),
        Input::Stdin => "<stdin>".into(),
    }
}

/// Reads an input as [`cairn_ingest::read_input`] does; a panic while reading it is an
/// error naming it (the sources it gave before are kept). `small`: a compressed input is
/// not read but left for the caller to stream (false is returned then).
pub(crate) fn read_input(
    input: &Input,
    opts: &ReadOptions,
    small: bool,
    emit: &mut dyn FnMut(Result<RawSource, cairn_ingest::Error>) -> bool,
) -> bool {
    let mut stopped = false;
    let read = catch_unwind(AssertUnwindSafe(|| {
        let mut emit = |r| {
            let go_on = emit(r);
            stopped |= !go_on;
            go_on
        };
        if small {
            cairn_ingest::read_small_input(input, opts, &mut emit)
        } else {
            cairn_ingest::read_input(input, opts, &mut emit);
            true
        }
    }));
    match read {
        Ok(done) => done,
        Err(p) => {
            if !stopped {
                emit(Err(cairn_ingest::Error::Bad {
                    path: input_name(input),
                    message: format!("reading it failed ({}); skipped", panic_text(&*p)),
                }));
            }
            true
        }
    }
}
