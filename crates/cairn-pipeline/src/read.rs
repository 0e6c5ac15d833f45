//! The reading stage: inputs read in order (a run of small files in parallel, a large
//! file streamed source by source), gathered into batches by count and bytes, each
//! batch handed to the preparer.

use cairn_ingest::{Input, RawSource, ReadOptions};
use rayon::prelude::*;

use crate::guard::{self, Failed};
use crate::prepare::Preparer;

/// Files up to this size are read in parallel runs; larger ones stream.
const SMALL_INPUT: u64 = 4 * 1024 * 1024;

/// Inputs read before the paths of those already read are let go, so that a run over
/// very many files does not hold every path to its end.
const RELEASE_INPUTS: usize = 1 << 16;

/// The sources read so far that make the next batch.
pub(crate) struct Batcher {
    pub preparer: Preparer,
    pub batch_sources: usize,
    pub batch_bytes: usize,
    pending: Vec<Result<RawSource, Failed>>,
    pending_bytes: usize,
}

impl Batcher {
    pub fn new(preparer: Preparer, batch_sources: usize, batch_bytes: usize) -> Self {
        Batcher {
            preparer,
            batch_sources,
            batch_bytes,
            pending: Vec::new(),
            pending_bytes: 0,
        }
    }

    /// Adds a source, preparing the batch when it is full; false when the writer has
    /// gone.
    fn push(&mut self, raw: Result<RawSource, Failed>) -> bool {
        if let Ok(r) = &raw {
            self.pending_bytes += r.bytes.len();
        }
        self.pending.push(raw);
        if self.pending.len() >= self.batch_sources || self.pending_bytes >= self.batch_bytes {
            self.pending_bytes = 0;
            return self.flush();
        }
        true
    }

    /// Prepares what is pending as one batch.
    fn flush(&mut self) -> bool {
        let batch = std::mem::take(&mut self.pending);
        self.preparer.batch(batch)
    }
}

/// Reads every input into `batcher`, then prepares what remains; stops early when the
/// writer has gone.
pub(crate) fn read_all(
    inputs: Vec<Input>,
    sizes: Vec<u64>,
    read_opts: &ReadOptions,
    batcher: &mut Batcher,
) {
    let (mut inputs, mut sizes) = (inputs, sizes);
    let mut i = 0;
    while i < inputs.len() {
        if i >= RELEASE_INPUTS {
            inputs.drain(..i);
            sizes.drain(..i);
            inputs.shrink_to_fit();
            sizes.shrink_to_fit();
            i = 0;
        }
        // A run of small files is read in parallel (each is one page or a few);
        // a large file (a WARC, a JSON Lines export) streams, source by source.
        let end = small_run_end(&inputs, &sizes, i, batcher);
        let go_on = if end > i {
            let go_on = read_small(&inputs[i..end], read_opts, batcher);
            i = end;
            go_on
        } else {
            i += 1;
            stream(&inputs[i - 1], read_opts, batcher)
        };
        if !go_on {
            return;
        }
    }
    if !batcher.pending.is_empty() {
        batcher.flush();
    }
}

/// Where the run of small files from `i` ends: at most a batch of them, by count and
/// by bytes.
fn small_run_end(inputs: &[Input], sizes: &[u64], i: usize, batcher: &Batcher) -> usize {
    let mut end = i;
    let mut run_bytes = 0;
    while end < inputs.len()
        && end - i < batcher.batch_sources
        && matches!(inputs[end], Input::File(_))
        && sizes[end] <= SMALL_INPUT
        && run_bytes + sizes[end] <= batcher.batch_bytes as u64
    {
        run_bytes += sizes[end];
        end += 1;
    }
    end
}

/// Reads a run of small files in parallel, then gives their sources to `batcher` in
/// order.
fn read_small(inputs: &[Input], read_opts: &ReadOptions, batcher: &mut Batcher) -> bool {
    // A compressed file is left to be read alone, in order, below: what it
    // decompresses to is not bounded by its size.
    let read: Vec<(Vec<_>, bool)> = inputs
        .par_iter()
        .map(|input| {
            let mut out = Vec::new();
            let done = guard::read_input(input, read_opts, true, &mut |raw| {
                out.push(raw);
                true
            });
            (out, done)
        })
        .collect();
    for (input, (raws, done)) in inputs.iter().zip(read) {
        for raw in raws {
            if !batcher.push(raw.map_err(Failed::from)) {
                return false;
            }
        }
        if !done && !stream(input, read_opts, batcher) {
            return false;
        }
    }
    true
}

/// Streams one input's sources into `batcher`; an input an earlier run rejected as a
/// whole is skipped unread.
fn stream(input: &Input, read_opts: &ReadOptions, batcher: &mut Batcher) -> bool {
    if let Some(skipped) = batcher.preparer.rejected_file(input) {
        return batcher.push(Err(skipped));
    }
    let mut go_on = true;
    guard::read_input(input, read_opts, false, &mut |raw| {
        go_on = batcher.push(raw.map_err(|e| guard::failed_reading(input, e)));
        go_on
    });
    go_on
}
