//! Login attempts rate-limited: failed logins are counted per user name and over the
//! whole server in a sliding window; past either bound, logins are refused before a
//! password is checked, so that guessing costs time whichever names are tried.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed logins of one name allowed in [`WINDOW`].
pub const PER_NAME: usize = 5;
/// Failed logins of all names allowed in [`WINDOW`].
pub const OVERALL: usize = 100;
/// How long a failed login counts.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Names whose failures are remembered at once; the oldest are forgotten past it.
const MAX_NAMES: usize = 10_000;

/// The failures of the window.
#[derive(Debug, Default)]
pub(crate) struct Limiter {
    inner: Mutex<Failures>,
}

#[derive(Debug, Default)]
struct Failures {
    by_name: HashMap<String, Vec<Instant>>,
    all: Vec<Instant>,
}

fn prune(times: &mut Vec<Instant>, now: Instant) {
    times.retain(|t| now.duration_since(*t) < WINDOW);
}

impl Limiter {
    /// When logins as `name` may be tried again, if not now.
    pub(crate) fn refused(&self, name: &str) -> Option<Duration> {
        let now = Instant::now();
        let mut f = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        prune(&mut f.all, now);
        let wait = |times: &[Instant]| {
            times
                .first()
                .map(|t| WINDOW.saturating_sub(now.duration_since(*t)))
        };
        if f.all.len() >= OVERALL {
            return wait(&f.all);
        }
        let times = f.by_name.get_mut(name)?;
        prune(times, now);
        if times.len() >= PER_NAME {
            return wait(times);
        }
        None
    }

    /// Counts a failed login as `name`.
    pub(crate) fn failed(&self, name: &str) {
        let now = Instant::now();
        let mut f = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if f.by_name.len() >= MAX_NAMES && !f.by_name.contains_key(name) {
            f.by_name.retain(|_, t| {
                prune(t, now);
                !t.is_empty()
            });
            if f.by_name.len() >= MAX_NAMES {
                f.by_name.clear();
            }
        }
        f.by_name.entry(name.to_string()).or_default().push(now);
        f.all.push(now);
    }

    /// Forgets the failures of `name` after it logged in.
    pub(crate) fn succeeded(&self, name: &str) {
        let mut f = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f.by_name.remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_refused_after_its_failures_and_others_are_not() {
        let l = Limiter::default();
        for _ in 0..PER_NAME {
            assert!(l.refused("ana").is_none());
            l.failed("ana");
        }
        let wait = l.refused("ana").unwrap();
        assert!(wait > Duration::from_secs(60) && wait <= WINDOW);
        assert!(l.refused("ben").is_none());
        l.succeeded("ana");
        assert!(l.refused("ana").is_none());
    }

    #[test]
    fn many_names_failing_close_the_door_for_all() {
        let l = Limiter::default();
        for i in 0..OVERALL {
            l.failed(&format!("name{i}"));
        }
        assert!(l.refused("someone new").is_some());
    }
}
