//! Bounded concurrency with a bounded, time-limited wait queue.
//!
//! About one OCR per core runs at once; up to `queue_depth` more requests wait, each at most
//! `queue_wait`. Anything beyond is refused at once with [`Busy`] (503 + Retry-After), so a
//! burst of photos cannot pile up memory or starve `/analyze`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Refused: every slot and queue place is taken, or the wait ran out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("OCR is busy: too many images are being processed; retry in {retry_after} s")]
pub struct Busy {
    /// Seconds the client should wait before retrying.
    pub retry_after: u32,
}

/// The gate in front of the OCR engine; clones share the same slots.
#[derive(Debug, Clone)]
pub struct Limiter {
    slots: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    queue_depth: usize,
    queue_wait: Duration,
}

/// A slot, released when dropped.
#[derive(Debug)]
pub struct Permit {
    _permit: OwnedSemaphorePermit,
}

/// Leaves the queue count when the waiting future ends, however it ends (a dropped request).
struct Waiting(Arc<AtomicUsize>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Limiter {
    /// `concurrency` slots (at least one), `queue_depth` waiting places, `queue_wait` patience.
    pub fn new(concurrency: usize, queue_depth: usize, queue_wait: Duration) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(concurrency.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            queue_depth,
            queue_wait,
        }
    }

    fn busy(&self) -> Busy {
        Busy {
            retry_after: u32::try_from(self.queue_wait.as_secs().clamp(1, 3600)).unwrap_or(1),
        }
    }

    /// A free slot now, or after waiting in the queue; [`Busy`] when the queue is full or the
    /// wait runs out.
    pub async fn acquire(&self) -> Result<Permit, Busy> {
        if let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() {
            return Ok(Permit { _permit: permit });
        }
        let before = self.waiting.fetch_add(1, Ordering::SeqCst);
        let _waiting = Waiting(Arc::clone(&self.waiting));
        if before >= self.queue_depth {
            return Err(self.busy());
        }
        self.wait_for_slot().await
    }

    /// A slot for a request admitted once already, which gave its slot up while it waited for
    /// something else (the vision LLM): it waits like a queued request, at most `queue_wait`,
    /// but a full queue does not refuse it, so work already accepted is not turned away half
    /// done. It still counts as waiting, so newcomers see the queue it adds to.
    pub async fn reacquire(&self) -> Result<Permit, Busy> {
        if let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() {
            return Ok(Permit { _permit: permit });
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let _waiting = Waiting(Arc::clone(&self.waiting));
        self.wait_for_slot().await
    }

    async fn wait_for_slot(&self) -> Result<Permit, Busy> {
        match tokio::time::timeout(self.queue_wait, Arc::clone(&self.slots).acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Permit { _permit: permit }),
            // Timed out, or the semaphore was closed (never: we do not close it).
            _ => Err(self.busy()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn slots_then_queue_then_busy() {
        let limiter = Limiter::new(1, 1, Duration::from_millis(300));
        let first = limiter.acquire().await.unwrap();
        // One may wait; it gets the slot when the first is released.
        let waiter = {
            let limiter = limiter.clone();
            tokio::spawn(async move { limiter.acquire().await.map(|_| ()) })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        // The queue is full: refused at once.
        assert_eq!(
            limiter.acquire().await.unwrap_err(),
            Busy { retry_after: 1 }
        );
        drop(first);
        assert!(waiter.await.unwrap().is_ok());
        // Everything released: a slot is free again.
        assert!(limiter.acquire().await.is_ok());
    }

    #[tokio::test]
    async fn a_readmitted_request_waits_even_when_the_queue_is_full() {
        let limiter = Limiter::new(1, 0, Duration::from_millis(500));
        let held = limiter.acquire().await.unwrap();
        // No queue at all: a newcomer is refused at once...
        assert!(limiter.acquire().await.is_err());
        // ...but a request that already had a slot waits for the next one.
        let back = {
            let limiter = limiter.clone();
            tokio::spawn(async move { limiter.reacquire().await.map(|_| ()) })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(limiter.waiting.load(Ordering::SeqCst), 1);
        drop(held);
        assert!(back.await.unwrap().is_ok());
        assert_eq!(limiter.waiting.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn a_readmitted_request_still_gives_up_after_the_wait() {
        let limiter = Limiter::new(1, 0, Duration::from_millis(100));
        let _held = limiter.acquire().await.unwrap();
        assert_eq!(
            limiter.reacquire().await.unwrap_err(),
            Busy { retry_after: 1 }
        );
        assert_eq!(limiter.waiting.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn the_wait_runs_out() {
        let limiter = Limiter::new(1, 5, Duration::from_millis(100));
        let _held = limiter.acquire().await.unwrap();
        let started = std::time::Instant::now();
        assert!(limiter.acquire().await.is_err());
        assert!(started.elapsed() >= Duration::from_millis(90));
        assert_eq!(limiter.waiting.load(Ordering::SeqCst), 0);
    }
}
