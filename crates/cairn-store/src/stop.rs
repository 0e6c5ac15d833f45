//! Stopping a search or an export its caller no longer wants (a request that timed out,
//! a client that went away): a flag the caller raises, checked as the index walks its
//! matches, so the work ends soon after instead of running to its end for nobody.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

/// A flag that stops the searches and exports it is given to; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag not raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every search and export holding this flag to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Stop::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Matches checked between two looks at the flag (a look is cheap, but not free).
const CHECK_EVERY: u32 = 1024;

/// A query that ends its walk of each segment once its flag is raised; the caller
/// looks at the flag afterwards and throws the partial result away.
#[derive(Debug)]
pub(crate) struct Stoppable {
    pub inner: Box<dyn Query>,
    pub stop: Stop,
}

impl Clone for Stoppable {
    fn clone(&self) -> Self {
        Stoppable {
            inner: self.inner.box_clone(),
            stop: self.stop.clone(),
        }
    }
}

impl Query for Stoppable {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(StoppableWeight {
            inner: self.inner.weight(enable_scoring)?,
            stop: self.stop.clone(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct StoppableWeight {
    inner: Box<dyn Weight>,
    stop: Stop,
}

impl Weight for StoppableWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        if self.stop.is_stopped() {
            return Ok(Box::new(tantivy::query::EmptyScorer));
        }
        Ok(Box::new(StoppableScorer {
            inner: self.inner.scorer(reader, boost)?,
            stop: self.stop.clone(),
            until_check: CHECK_EVERY,
            stopped: false,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }
}

struct StoppableScorer {
    inner: Box<dyn Scorer>,
    stop: Stop,
    until_check: u32,
    stopped: bool,
}

impl StoppableScorer {
    /// Whether to end the walk here: the flag is read once every [`CHECK_EVERY`] calls.
    fn should_stop(&mut self, steps: u32) -> bool {
        if self.stopped {
            return true;
        }
        self.until_check = self.until_check.saturating_sub(steps);
        if self.until_check == 0 {
            self.until_check = CHECK_EVERY;
            self.stopped = self.stop.is_stopped();
        }
        self.stopped
    }
}

impl DocSet for StoppableScorer {
    fn advance(&mut self) -> DocId {
        if self.should_stop(1) {
            return TERMINATED;
        }
        self.inner.advance()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.should_stop(1) {
            return TERMINATED;
        }
        self.inner.seek(target)
    }

    fn fill_buffer(&mut self, buffer: &mut [DocId; tantivy::COLLECT_BLOCK_BUFFER_LEN]) -> usize {
        if self.should_stop(buffer.len() as u32) {
            return 0;
        }
        self.inner.fill_buffer(buffer)
    }

    fn doc(&self) -> DocId {
        if self.stopped {
            TERMINATED
        } else {
            self.inner.doc()
        }
    }

    fn size_hint(&self) -> u32 {
        self.inner.size_hint()
    }

    fn cost(&self) -> u64 {
        self.inner.cost()
    }
}

impl Scorer for StoppableScorer {
    fn score(&mut self) -> Score {
        self.inner.score()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::{Collector, SegmentCollector};
    use tantivy::query::AllQuery;
    use tantivy::schema::{INDEXED, Schema};
    use tantivy::{Index, SegmentOrdinal, doc};

    /// Counts the matches it is shown and raises the flag at the first.
    struct RaiseAtFirst(Stop);
    struct RaiseAtFirstSegment(Stop, usize);

    impl Collector for RaiseAtFirst {
        type Fruit = usize;
        type Child = RaiseAtFirstSegment;
        fn for_segment(
            &self,
            _: SegmentOrdinal,
            _: &SegmentReader,
        ) -> tantivy::Result<RaiseAtFirstSegment> {
            Ok(RaiseAtFirstSegment(self.0.clone(), 0))
        }
        fn requires_scoring(&self) -> bool {
            true
        }
        fn merge_fruits(&self, counts: Vec<usize>) -> tantivy::Result<usize> {
            Ok(counts.into_iter().sum())
        }
    }

    impl SegmentCollector for RaiseAtFirstSegment {
        type Fruit = usize;
        fn collect(&mut self, _: DocId, _: Score) {
            self.0.stop();
            self.1 += 1;
        }
        fn harvest(self) -> usize {
            self.1
        }
    }

    #[test]
    fn a_raised_flag_ends_the_walk_within_a_check() {
        let mut schema = Schema::builder();
        let n = schema.add_u64_field("n", INDEXED);
        let index = Index::create_in_ram(schema.build());
        let mut w = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for i in 0..20_000u64 {
            w.add_document(doc!(n => i)).unwrap();
        }
        w.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        assert_eq!(searcher.segment_readers().len(), 1);

        let never = Stop::new();
        let all = Stoppable {
            inner: Box::new(AllQuery),
            stop: never.clone(),
        };
        let seen = searcher.search(&all, &RaiseAtFirst(Stop::new())).unwrap();
        assert_eq!(seen, 20_000, "a flag nobody raises changes nothing");

        let stop = Stop::new();
        let q = Stoppable {
            inner: Box::new(AllQuery),
            stop: stop.clone(),
        };
        let seen = searcher.search(&q, &RaiseAtFirst(stop.clone())).unwrap();
        assert!(stop.is_stopped());
        assert!(
            seen <= CHECK_EVERY as usize,
            "walked {seen} matches after the stop"
        );
        // A search started with the flag up walks nothing.
        assert_eq!(searcher.search(&q, &RaiseAtFirst(stop)).unwrap(), 0);
    }
}
