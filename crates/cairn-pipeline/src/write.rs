//! The writing stage: each prepared batch stored in one transaction, in input order,
//! the sources that failed reported and remembered, and a long source stored part by
//! part in one transaction.

use std::sync::Arc;

use cairn_extract::Extractor;
use cairn_store::{ArchiveWriter, BatchSummary, NewSource};
use crossbeam_channel::Receiver;

use crate::cluster::{NearClusterer, WithRecords, staged};
use crate::guard::Failed;
use crate::keyed::{Fresh, Part};
use crate::prepare::{Prepared, Ready};
use crate::{Error, Event, Report, Result};

/// What the writer holds while the run goes.
pub(crate) struct Writer<'a> {
    pub archive: &'a mut ArchiveWriter,
    pub near: Option<NearClusterer>,
    pub exact_only: cairn_store::ExactOnly,
    pub extractor: Arc<Extractor>,
    pub report: Report,
    pub on_event: &'a mut dyn FnMut(Event),
    /// Stored sources that an earlier run rejected are forgotten as such.
    pub retry: bool,
}

impl Writer<'_> {
    /// Stores what the preparer sends until it is done, or until a write fails.
    pub fn run(&mut self, rx: &Receiver<Prepared>) -> Result<()> {
        for prepared in rx.iter() {
            let res = match prepared {
                Prepared::Batch { items, fresh } => match self.batch(items, fresh) {
                    Ok(None) => continue,
                    Ok(Some(summary)) => Ok(summary),
                    Err(e) => Err(e),
                },
                Prepared::Part(first) => self.parts(first, rx),
            };
            let summary = res?;
            self.report.add(&summary);
            (self.on_event)(Event::Committed(summary));
        }
        Ok(())
    }

    /// Stores a batch; `None` when none of its sources was new.
    fn batch(
        &mut self,
        items: Vec<Result<Ready, Failed>>,
        fresh: Vec<Fresh>,
    ) -> Result<Option<BatchSummary>> {
        let (sources, rejections) = self.sort_out(items);
        // Stored sources that an earlier run rejected are forgotten as such.
        let retried: Vec<(String, String)> = if self.retry {
            sources
                .iter()
                .map(|s| (s.uri.clone(), s.sha256.clone()))
                .collect()
        } else {
            Vec::new()
        };
        self.archive.note_rejected(&rejections, &retried)?;
        if sources.is_empty() {
            return Ok(None);
        }
        let mut clusterer = WithRecords {
            clusterer: staged(&mut self.near, &mut self.exact_only, fresh),
            extractor: &self.extractor,
        };
        let res = self.archive.write_batch_with(&sources, &mut clusterer);
        if let Some(n) = self.near.as_mut() {
            n.publish();
        }
        res.map(Some).map_err(Error::from)
    }

    /// The sources of a batch to store, each announced; those that failed reported,
    /// and the rejections to remember.
    fn sort_out(
        &mut self,
        items: Vec<Result<Ready, Failed>>,
    ) -> (Vec<NewSource>, Vec<cairn_store::Rejection>) {
        let report = &mut self.report;
        let on_event = &mut *self.on_event;
        let mut sources = Vec::with_capacity(items.len());
        let mut rejections = Vec::new();
        for p in items {
            match p {
                Ok(Ready::Stored) => report.sources_skipped += 1,
                Ok(Ready::Source(s)) => {
                    announce(&s, s.occurrences.len(), report, on_event);
                    on_event(Event::Read {
                        bytes: s.bytes.len() as u64,
                        captions: s.occurrences.len() as u64,
                    });
                    sources.push(*s);
                }
                Err(Failed {
                    notice: Some(notice),
                    ..
                }) => {
                    let (path, message) = *notice;
                    report.warnings += 1;
                    on_event(Event::Warning {
                        source: path,
                        message,
                    });
                }
                Err(f) if f.before => {
                    report.rejected_before += 1;
                    on_event(Event::Skipped { message: f.message });
                }
                Err(f) => {
                    report.rejected += 1;
                    if let Some((uri, sha256)) = f.id {
                        rejections.push(cairn_store::Rejection {
                            uri,
                            sha256,
                            reason: f.message.clone(),
                        });
                    }
                    on_event(Event::Rejected { message: f.message });
                }
            }
        }
        (sources, rejections)
    }

    /// Stores a source given in parts ([`Part`]), `first` and those that follow it on
    /// `rx`, in one transaction; near-duplicate representatives are published after
    /// each part, for the reader's probes of the next ones.
    fn parts(&mut self, first: Part, rx: &Receiver<Prepared>) -> Result<BatchSummary> {
        let Part {
            source,
            fresh,
            captions,
            mut last,
            ..
        } = first;
        let Some(source) = source else {
            unreachable!("a source's first part carries it");
        };
        announce(&source, captions, &mut self.report, &mut *self.on_event);
        // The bytes read are counted as the captions go.
        let mut share = Share {
            bytes: source.bytes.len() as u64,
            captions,
            done: 0,
        };
        (self.on_event)(share.read(source.occurrences.len(), last));
        let mut write = self.archive.begin_write()?;
        let stored = write.add_source(
            &source,
            &mut WithRecords {
                clusterer: staged(&mut self.near, &mut self.exact_only, fresh),
                extractor: &self.extractor,
            },
        );
        if let Some(n) = self.near.as_mut() {
            n.publish();
        }
        let mut stored = stored?;
        drop(source);
        while !last {
            let part = match rx.recv() {
                Ok(Prepared::Part(part)) if part.source.is_none() => part,
                // The reader sends a source's parts one after the other.
                Ok(_) => unreachable!("a source's parts come one after the other"),
                // The reader stopped in the middle (it panicked: the panic is raised
                // when it is joined): the write is rolled back.
                Err(_) => return Ok(BatchSummary::default()),
            };
            last = part.last;
            (self.on_event)(share.read(part.occurrences.len(), last));
            // A source stored already (named twice) has its parts let go.
            let Some(stored) = stored.as_mut() else {
                continue;
            };
            let res = write.add_occurrences(
                stored,
                &part.occurrences,
                &mut WithRecords {
                    clusterer: staged(&mut self.near, &mut self.exact_only, part.fresh),
                    extractor: &self.extractor,
                },
            );
            if let Some(n) = self.near.as_mut() {
                n.publish();
            }
            res?;
        }
        Ok(write.commit()?)
    }
}

/// The share of a long source's bytes its parts read so far stand for.
struct Share {
    bytes: u64,
    captions: usize,
    done: usize,
}

impl Share {
    /// The progress of `n` more captions; the last part completes the source's bytes.
    fn read(&mut self, n: usize, last: bool) -> Event {
        let before = self.at(self.done);
        self.done += n;
        let now = if last { self.bytes } else { self.at(self.done) };
        Event::Read {
            bytes: now - before,
            captions: n as u64,
        }
    }

    fn at(&self, done: usize) -> u64 {
        self.bytes * done as u64 / self.captions.max(1) as u64
    }
}

/// Reports a source's warnings, and a warning if it has no captions.
fn announce(s: &NewSource, captions: usize, report: &mut Report, on_event: &mut dyn FnMut(Event)) {
    for w in &s.warnings {
        report.warnings += 1;
        on_event(Event::Warning {
            source: s.uri.clone(),
            message: w.clone(),
        });
    }
    if captions == 0 {
        report.warnings += 1;
        on_event(Event::Warning {
            source: s.uri.clone(),
            message: "no captions found (no non-blank text)".into(),
        });
    }
}
