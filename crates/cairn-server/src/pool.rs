//! The open connections, each with whether a request is at work on it: at the cap, the
//! connection that has waited longest for a request is closed to let a new client in,
//! so idle and kept-alive connections cannot keep the users out until they time out.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::watched::Activity;

/// One open connection as the pool sees it.
struct Member {
    activity: Arc<Activity>,
    at_work: Arc<AtomicUsize>,
    close: Arc<Notify>,
}

/// The open connections.
#[derive(Default)]
pub(crate) struct Pool {
    members: Mutex<HashMap<u64, Member>>,
    next: AtomicU64,
}

/// A connection's place in the pool, given up when dropped.
pub(crate) struct Membership {
    pool: Arc<Pool>,
    id: u64,
    /// Requests at work on the connection (from their head read to their answer's end).
    pub(crate) at_work: Arc<AtomicUsize>,
    /// Raised when the pool wants the connection closed.
    pub(crate) close: Arc<Notify>,
}

impl Pool {
    /// Enters a connection whose bytes `activity` watches.
    pub(crate) fn join(self: &Arc<Self>, activity: Arc<Activity>) -> Membership {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let at_work = Arc::new(AtomicUsize::new(0));
        let close = Arc::new(Notify::new());
        let member = Member {
            activity,
            at_work: at_work.clone(),
            close: close.clone(),
        };
        self.lock().insert(id, member);
        Membership {
            pool: self.clone(),
            id,
            at_work,
            close,
        }
    }

    /// Tells the connection with no request at work whose last byte moved longest ago
    /// to close; false when every connection is at work.
    pub(crate) fn close_oldest_idle(&self) -> bool {
        let mut members = self.lock();
        let oldest = members
            .iter()
            .filter(|(_, m)| m.at_work.load(Ordering::Acquire) == 0)
            .min_by_key(|(_, m)| m.activity.last())
            .map(|(id, _)| *id);
        // Out of the pool at once, so that it is not chosen twice while it closes.
        match oldest.and_then(|id| members.remove(&id)) {
            Some(m) => {
                m.close.notify_one();
                true
            }
            None => false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Member>> {
        // The map stays whole whatever a holder did: entries are inserted or removed.
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Membership {
    fn drop(&mut self) {
        self.pool.lock().remove(&self.id);
    }
}

/// A request at work on a connection, counted until its answer's body is dropped
/// (written out, or given up).
pub(crate) struct AtWork(Arc<AtomicUsize>);

impl AtWork {
    pub(crate) fn start(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::AcqRel);
        AtWork(count.clone())
    }
}

impl Drop for AtWork {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
