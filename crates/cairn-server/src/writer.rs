//! The server's one writer: saves, splits, merges and uploads' sources wait in one
//! queue served by a single thread that owns the archive's writer. The thread takes
//! what is queued at once as a group, runs each job in its own transaction in turn,
//! then commits the search index once for the group and answers each job: a burst of
//! saves costs one commit, and every answer comes when searches see what it did. An
//! upload is queued source by source, so that a save queued meanwhile goes next.
//! Readers never pass through here. The writer (and the archive's writer lock) is let
//! go as soon as the queue is empty and no upload is under way, so that command-line
//! writers take turns with the server.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cairn_pipeline::DocumentWriter;
use cairn_store::{Archive, ArchiveWriter};
use tokio::sync::oneshot;

use crate::{ApiError, ApiResult, BUSY_RETRY_AFTER_SECS};

/// How often the writer thread, kept for an upload under way, looks whether it ended.
const UPLOAD_POLL: Duration = Duration::from_millis(50);
/// The longest an ended upload waits for the writer thread to let the archive go.
const SETTLE_WAIT: Duration = Duration::from_secs(5);
/// The most jobs one group takes, so that answers are not held back for long.
const GROUP: usize = 32;

/// What the writer thread owns while it holds the archive's writer.
pub(crate) struct Held {
    pub(crate) archive: ArchiveWriter,
    /// The pipeline's writer of uploads, made at the first upload.
    pub(crate) pipeline: Option<DocumentWriter>,
}

impl Held {
    /// Runs `f`, a write that changes no caption's texts or grouping (a save), keeping
    /// the uploads' near-duplicate index across it.
    pub(crate) fn edit<T>(
        &mut self,
        f: impl FnOnce(&mut ArchiveWriter) -> cairn_store::Result<T>,
    ) -> cairn_store::Result<T> {
        let before = self.archive.last_batch()?;
        let out = f(&mut self.archive)?;
        if let Some(p) = &mut self.pipeline {
            p.carry_near(before, self.archive.last_batch()?);
        }
        Ok(out)
    }
}

/// A job's answer, sent once its group's index is committed.
type Reply = Box<dyn FnOnce() + Send>;
/// A job: given the writer, or why there is none, it does its write and gives back its
/// answer.
type Job = Box<dyn FnOnce(Result<&mut Held, ApiError>) -> Reply + Send>;

struct Queued {
    job: Job,
    /// Past it the job is not started, and answered `busy`.
    deadline: Instant,
}

enum Msg {
    Write(Queued),
    /// An upload has ended: the writer is let go if nothing else needs it, then the
    /// sender is told, so that its answer comes with the archive free.
    Settle(mpsc::Sender<()>),
}

/// The queue's handle, shared by the handlers.
#[derive(Clone, Debug)]
pub(crate) struct Writer {
    tx: mpsc::Sender<Msg>,
    /// Uploads under way: the writer is kept between their sources.
    uploads: Arc<AtomicUsize>,
}

/// An upload under way, until dropped (on a blocking thread: the drop waits for the
/// writer thread to let the archive go).
pub(crate) struct Uploading(Writer);

impl Drop for Uploading {
    fn drop(&mut self) {
        self.0.uploads.fetch_sub(1, Ordering::AcqRel);
        let (tx, rx) = mpsc::channel();
        if self.0.tx.send(Msg::Settle(tx)).is_ok() {
            let _ = rx.recv_timeout(SETTLE_WAIT);
        }
    }
}

impl Writer {
    /// Starts the writer thread of the archive in `dir`; it opens the archive for
    /// writing at the first job, and ends when every handle is dropped.
    pub(crate) fn start(dir: PathBuf) -> Self {
        let (tx, rx) = mpsc::channel();
        let uploads = Arc::new(AtomicUsize::new(0));
        let under_way = uploads.clone();
        let started = std::thread::Builder::new()
            .name("cairn-writer".into())
            .spawn(move || serve(&dir, &rx, &under_way));
        if let Err(e) = started {
            // Every write is then answered as an internal error, reads go on.
            tracing::error!("the archive's writer thread cannot start: {e}");
        }
        Writer { tx, uploads }
    }

    /// Keeps the writer between an upload's sources while the result is held, rather
    /// than opening it again for each.
    pub(crate) fn uploading(&self) -> Uploading {
        self.uploads.fetch_add(1, Ordering::AcqRel);
        Uploading(self.clone())
    }

    /// Runs `f` with the writer after the jobs queued before it; answered `busy`
    /// when its turn comes after `deadline`.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        deadline: Instant,
        f: impl FnOnce(&mut Held) -> ApiResult<T> + Send + 'static,
    ) -> ApiResult<T> {
        self.queue(deadline, f)?.await.map_err(stopped)?
    }

    /// [`Writer::run`] from a blocking thread.
    pub(crate) fn run_blocking<T: Send + 'static>(
        &self,
        deadline: Instant,
        f: impl FnOnce(&mut Held) -> ApiResult<T> + Send + 'static,
    ) -> ApiResult<T> {
        self.queue(deadline, f)?.blocking_recv().map_err(stopped)?
    }

    fn queue<T: Send + 'static>(
        &self,
        deadline: Instant,
        f: impl FnOnce(&mut Held) -> ApiResult<T> + Send + 'static,
    ) -> ApiResult<oneshot::Receiver<ApiResult<T>>> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |held| {
            // Whoever asked has gone (timed out, disconnected): the write is not made.
            if tx.is_closed() {
                return Box::new(|| ());
            }
            let out = held.and_then(f);
            Box::new(move || {
                let _ = tx.send(out);
            })
        });
        self.tx
            .send(Msg::Write(Queued { job, deadline }))
            .map_err(|_| stopped(()))?;
        Ok(rx)
    }
}

fn stopped<E>(_: E) -> ApiError {
    ApiError::Internal("the archive's writer has stopped".into())
}

fn busy() -> ApiError {
    ApiError::Busy(format!(
        "the archive is being written; try again in {BUSY_RETRY_AFTER_SECS} s"
    ))
}

/// A store error of a write as the client is told it.
pub(crate) fn refused(e: cairn_store::Error) -> ApiError {
    match e {
        cairn_store::Error::Invalid(m) => ApiError::BadRequest(m),
        cairn_store::Error::NoCaption(id) => ApiError::NotFound(format!("no caption {id}")),
        other => ApiError::from(other),
    }
}

/// The writer thread's state.
struct Thread<'a> {
    dir: &'a Path,
    rx: &'a mpsc::Receiver<Msg>,
    uploads: &'a AtomicUsize,
    held: Option<Held>,
    /// The uploads' pipeline outlives the writer it was used with (its extractor and
    /// gazetteer are costly to make; its near-duplicate index is checked for change).
    spare: Option<DocumentWriter>,
    /// A message taken from the queue ahead of its turn.
    pending: Option<Msg>,
}

/// The writer thread: groups of queued jobs, with the writer kept while more are
/// queued or an upload is under way.
fn serve(dir: &Path, rx: &mpsc::Receiver<Msg>, uploads: &AtomicUsize) {
    let mut t = Thread {
        dir,
        rx,
        uploads,
        held: None,
        spare: None,
        pending: None,
    };
    while let Some(msg) = t.pending.take().or_else(|| t.wait()) {
        match msg {
            Msg::Settle(ack) => {
                t.release_if_idle();
                let _ = ack.send(());
            }
            Msg::Write(first) => {
                let group = t.collect(first);
                t.run(group);
            }
        }
    }
}

impl Thread<'_> {
    /// The next message; the writer is let go meanwhile unless an upload is under way.
    /// None when every handle is gone.
    fn wait(&mut self) -> Option<Msg> {
        loop {
            self.release_if_idle();
            if self.held.is_none() {
                return self.rx.recv().ok();
            }
            match self.rx.recv_timeout(UPLOAD_POLL) {
                Ok(m) => return Some(m),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn release_if_idle(&mut self) {
        if self.pending.is_none() && self.uploads.load(Ordering::Acquire) == 0 {
            if let Some(h) = self.held.take() {
                self.spare = h.pipeline;
            }
        }
    }

    /// `first` and the writes queued behind it, up to a settle.
    fn collect(&mut self, first: Queued) -> Vec<Queued> {
        let mut group = vec![first];
        while group.len() < GROUP {
            match self.rx.try_recv() {
                Ok(Msg::Write(q)) => group.push(q),
                Ok(settle) => {
                    self.pending = Some(settle);
                    break;
                }
                Err(_) => break,
            }
        }
        group
    }

    /// Runs a group with the writer (opened if need be); the writer is let go before
    /// the answers when nothing else is queued.
    fn run(&mut self, group: Vec<Queued>) {
        let held = match self.held.take() {
            Some(h) => h,
            None => match open(self.dir, &group, &mut self.spare) {
                Ok(h) => h,
                Err(why) => {
                    for q in group {
                        (q.job)(Err(why()))();
                    }
                    return;
                }
            },
        };
        let (held, replies) = run_group(held, group);
        self.held = held;
        if self.pending.is_none() {
            self.pending = self.rx.try_recv().ok();
        }
        self.release_if_idle();
        for reply in replies {
            reply();
        }
    }
}

/// Opens the archive for writing, waiting for another process's writer as long as the
/// group's last deadline allows; else gives what its jobs are told.
fn open(
    dir: &Path,
    group: &[Queued],
    spare: &mut Option<DocumentWriter>,
) -> Result<Held, impl Fn() -> ApiError + use<>> {
    let last = group.iter().map(|q| q.deadline).max();
    let wait = last.map_or(Duration::ZERO, |d| {
        d.saturating_duration_since(Instant::now())
    });
    match Archive::open_writer_waiting(dir, wait) {
        Ok(mut archive) => {
            // The group's end commits the index, once for all its jobs.
            archive.set_index_interval(Duration::MAX);
            Ok(Held {
                archive,
                pipeline: spare.take(),
            })
        }
        Err(e) => {
            let is_busy = matches!(e, cairn_store::Error::Busy(_));
            let why = e.to_string();
            Err(move || {
                if is_busy {
                    busy()
                } else {
                    ApiError::Internal(format!("cannot open the archive to write: {why}"))
                }
            })
        }
    }
}

/// Runs one group's jobs in turn and commits the index; gives back the writer to keep
/// (none when its state is in doubt: the next group opens it again, caught up) and the
/// answers to send.
fn run_group(mut held: Held, group: Vec<Queued>) -> (Option<Held>, Vec<Reply>) {
    let mut replies = Vec::with_capacity(group.len());
    let mut sound = true;
    for q in group {
        if !sound || Instant::now() >= q.deadline {
            replies.push((q.job)(Err(busy())));
            continue;
        }
        match catch_unwind(AssertUnwindSafe(|| (q.job)(Ok(&mut held)))) {
            Ok(reply) => replies.push(reply),
            // The job's answer is dropped: its asker is told the writer stopped.
            Err(_) => sound = false,
        }
    }
    if sound {
        if let Err(e) = held.archive.sync_index() {
            tracing::error!("the search index could not be committed: {e}");
            sound = false;
        }
    }
    (sound.then_some(held), replies)
}
