//! A small bounded least-recently-used map, shared between workers behind a mutex.
//!
//! The recency order is the `lru` crate's (a hash map threaded with a linked list: O(1) get
//! and insert); this wrapper adds the sharing, the disabled cache of capacity 0 and the
//! hit/miss counters.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

#[derive(Debug)]
struct Inner<V> {
    /// `None` when the capacity is 0 (caching disabled).
    map: Option<lru::LruCache<String, V>>,
    hits: u64,
    misses: u64,
}

/// Bounded LRU map from string keys; clones share the same entries.
#[derive(Debug)]
pub struct Lru<V> {
    inner: Arc<Mutex<Inner<V>>>,
}

impl<V> Clone for Lru<V> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<V: Clone> Lru<V> {
    /// At most `capacity` entries (0 disables caching).
    pub fn new(capacity: usize) -> Self {
        Self {
            inner: Arc::new(Mutex::new(Inner {
                map: NonZeroUsize::new(capacity).map(lru::LruCache::new),
                hits: 0,
                misses: 0,
            })),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<V>> {
        // A panic while holding the lock leaves a consistent map (no multi-step updates).
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value for `key`, marked as recently used.
    pub fn get(&self, key: &str) -> Option<V> {
        let mut inner = self.lock();
        let found = inner.map.as_mut().and_then(|map| map.get(key).cloned());
        if found.is_some() {
            inner.hits += 1;
        } else {
            inner.misses += 1;
        }
        found
    }

    /// Stores `value`, evicting the least recently used entry when full.
    pub fn insert(&self, key: String, value: V) {
        if let Some(map) = self.lock().map.as_mut() {
            map.put(key, value);
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.lock().map.as_ref().map_or(0, lru::LruCache::len)
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (hits, misses) since start.
    pub fn stats(&self) -> (u64, u64) {
        let inner = self.lock();
        (inner.hits, inner.misses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used() {
        let cache = Lru::new(2);
        cache.insert("a".into(), 1);
        cache.insert("b".into(), 2);
        assert_eq!(cache.get("a"), Some(1));
        cache.insert("c".into(), 3);
        assert_eq!(cache.get("b"), None);
        assert_eq!(cache.get("a"), Some(1));
        assert_eq!(cache.get("c"), Some(3));
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.stats(), (3, 1));
    }

    #[test]
    fn zero_capacity_keeps_nothing() {
        let cache = Lru::new(0);
        cache.insert("a".into(), 1);
        assert!(cache.is_empty());
        assert_eq!(cache.get("a"), None);
        assert_eq!(cache.stats(), (0, 1));
    }

    #[test]
    fn updating_a_key_keeps_one_entry_and_marks_it_used() {
        let cache = Lru::new(2);
        cache.insert("a".into(), 1);
        cache.insert("b".into(), 2);
        cache.insert("a".into(), 10);
        cache.insert("c".into(), 3);
        assert_eq!(cache.get("a"), Some(10));
        assert_eq!(cache.get("b"), None);
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn clones_share_the_entries() {
        let cache = Lru::new(4);
        cache.clone().insert("a".into(), 1);
        assert_eq!(cache.get("a"), Some(1));
    }
}
