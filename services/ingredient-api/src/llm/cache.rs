//! A small bounded least-recently-used map, shared between workers behind a mutex.
//!
//! Entries are few (thousands) and operations rare next to an LLM call, so eviction scans
//! for the oldest entry instead of keeping a linked list.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Debug)]
struct Inner<V> {
    map: HashMap<String, (V, u64)>,
    tick: u64,
    hits: u64,
    misses: u64,
}

/// Bounded LRU map from string keys; clones share the same entries.
#[derive(Debug)]
pub struct Lru<V> {
    inner: Arc<Mutex<Inner<V>>>,
    capacity: usize,
}

impl<V> Clone for Lru<V> {
    fn clone(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            capacity: self.capacity,
        }
    }
}

impl<V: Clone> Lru<V> {
    /// At most `capacity` entries (0 disables caching).
    pub fn new(capacity: usize) -> Self {
        Self {
            inner: Arc::new(Mutex::new(Inner {
                map: HashMap::new(),
                tick: 0,
                hits: 0,
                misses: 0,
            })),
            capacity,
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
        inner.tick += 1;
        let tick = inner.tick;
        let found = inner.map.get_mut(key).map(|(value, used)| {
            *used = tick;
            value.clone()
        });
        if found.is_some() {
            inner.hits += 1;
        } else {
            inner.misses += 1;
        }
        found
    }

    /// Stores `value`, evicting the least recently used entry when full.
    pub fn insert(&self, key: String, value: V) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        if !inner.map.contains_key(&key)
            && inner.map.len() >= self.capacity
            && let Some(oldest) = inner
                .map
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
        {
            inner.map.remove(&oldest);
        }
        inner.map.insert(key, (value, tick));
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.lock().map.len()
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
    }
}
