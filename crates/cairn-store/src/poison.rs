//! Locks taken past a panic of an earlier holder. What these locks guard (pooled read
//! connections, loaded dictionaries, per-segment tables) is never left half-changed by
//! a holder, so one panicking request is no reason to fail every later one.

use std::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// `m` locked, whether or not an earlier holder panicked.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// `l` locked for reading, whether or not an earlier writer panicked.
pub(crate) fn read<T>(l: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|p| p.into_inner())
}

/// `l` locked for writing, whether or not an earlier holder panicked.
pub(crate) fn write<T>(l: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|p| p.into_inner())
}
