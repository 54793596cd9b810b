//! The threads that decode images and run the neural engine: one per OCR slot, started once.
//!
//! They replace tokio's blocking pool for this work because of how glibc's allocator keeps
//! memory: each thread allocates from its own arena, and what a request frees stays in that
//! arena for the next request *of the same thread*. On tokio's pool a request lands on
//! whichever thread is idle, so ONNX Runtime's activations were kept once per thread that
//! ever ran one, and the service's RSS grew from request to request (measured: 288 → 414 MB
//! over two reads of the same photo). With a fixed thread per slot the memory a request
//! frees is what the next one on that thread reuses.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// A job's answer, handed over once its thread is marked idle again.
type Answer = Box<dyn FnOnce() + Send>;
/// A job for an OCR thread.
type Job = Box<dyn FnOnce() -> Answer + Send>;

/// The OCR threads; clones share them. The threads stop when the last clone is dropped.
#[derive(Debug, Clone)]
pub struct OcrThreads {
    queues: Vec<Sender<Job>>,
    /// Idle threads, the one idle last on top: a request takes the thread that ran the
    /// previous one, so one after the other they reuse one arena, not one per thread.
    idle: Arc<Mutex<Vec<usize>>>,
}

/// The job stopped before it answered (it panicked).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the OCR thread stopped")]
pub struct Stopped;

impl OcrThreads {
    /// Starts `count` threads (at least one), each running `start` first (its priority).
    pub fn start(count: usize, start: impl Fn() + Clone + Send + 'static) -> Self {
        let idle = Arc::new(Mutex::new(Vec::new()));
        let mut queues = Vec::new();
        for n in 0..count.max(1) {
            let (jobs, queue) = mpsc::channel::<Job>();
            let (idle_too, start) = (Arc::clone(&idle), start.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("ocr-{n}"))
                .spawn(move || {
                    start();
                    work(n, &queue, &idle_too);
                });
            match spawned {
                Ok(_) => {
                    lock(&idle).push(queues.len());
                    queues.push(jobs);
                }
                Err(e) => tracing::error!(error = %e, "cannot start an OCR thread"),
            }
        }
        Self { queues, idle }
    }

    /// Runs `job` on the OCR thread idle last and waits for its answer. The OCR limiter
    /// admits at most one request per thread, so one is idle; should none be, the job waits
    /// for the first thread.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Stopped> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let thread = lock(&self.idle).pop().unwrap_or(0);
        self.queues
            .get(thread)
            .ok_or(Stopped)?
            .send(Box::new(move || {
                let value = job();
                Box::new(move || {
                    let _ = answer.send(value);
                })
            }))
            .map_err(|_| Stopped)?;
        answered.await.map_err(|_| Stopped)
    }
}

/// The idle list, whatever a panic elsewhere left (a list of numbers cannot be half-changed).
fn lock(idle: &Mutex<Vec<usize>>) -> std::sync::MutexGuard<'_, Vec<usize>> {
    idle.lock().unwrap_or_else(|p| p.into_inner())
}

/// Thread `n`'s loop: the next job, until every sender is gone. It is marked idle before its
/// answer is handed over, so the request after it finds it idle. A job that panics drops its
/// answer (the caller gets [`Stopped`]) and the thread goes on.
fn work(n: usize, queue: &Receiver<Job>, idle: &Mutex<Vec<usize>>) {
    while let Ok(job) = queue.recv() {
        let answer = std::panic::catch_unwind(AssertUnwindSafe(job));
        {
            let mut idle = lock(idle);
            if !idle.contains(&n) {
                idle.push(n);
            }
        }
        if let Ok(answer) = answer {
            answer();
        }
    }
}

/// Lowers the calling thread's priority by `nice` (once per thread): decoding and preparing an
/// image is CPU work that must yield to the HTTP workers, like Tesseract does. On Linux
/// `setpriority(PRIO_PROCESS, tid)` changes only this thread. It stays lowered, since an
/// unprivileged process cannot raise it back: it runs on the OCR threads ([`OcrThreads`]) and on
/// tokio's blocking pool, where only OCR work runs (and DNS look-ups for the LLM client, which
/// do not mind). The soak measured
/// /analyze's p99 at 2.05x its idle value with Tesseract niced but these threads not.
pub fn lower_thread_priority(nice: u8) {
    use std::cell::Cell;
    thread_local! {
        static LOWERED: Cell<bool> = const { Cell::new(false) };
    }
    if nice == 0 || LOWERED.get() {
        return;
    }
    LOWERED.set(true);
    let tid = rustix::thread::gettid();
    let current = rustix::process::getpriority_process(Some(tid)).unwrap_or(0);
    let wanted = (current + i32::from(nice)).min(i32::from(super::tesseract::MAX_NICE));
    if let Err(e) = rustix::process::setpriority_process(Some(tid), wanted) {
        tracing::warn!(error = %e, "cannot lower the priority of an OCR thread");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_threads_run_at_a_lower_priority_once() {
        let priority = || rustix::process::getpriority_process(Some(rustix::thread::gettid()));
        let (before, after, again, other) = std::thread::spawn(move || {
            let before = priority().unwrap();
            lower_thread_priority(4);
            let after = priority().unwrap();
            lower_thread_priority(4);
            let again = priority().unwrap();
            (
                before,
                after,
                again,
                std::thread::spawn(priority).join().unwrap().unwrap(),
            )
        })
        .join()
        .unwrap();
        assert_eq!(after, (before + 4).min(19), "the thread was not lowered");
        assert_eq!(again, after, "a second call lowered it again");
        // A thread it creates inherits its value (Linux); the calling thread is untouched.
        assert_eq!(other, after);
        assert_eq!(
            priority().unwrap(),
            before,
            "another thread was lowered too"
        );
    }

    #[tokio::test]
    async fn jobs_run_on_the_same_named_threads_and_a_panic_is_an_error() {
        let threads = OcrThreads::start(1, || {});
        let name = || std::thread::current().name().map(str::to_owned);
        let first = threads.run(name).await.unwrap();
        assert_eq!(first.as_deref(), Some("ocr-0"));
        #[allow(clippy::panic)] // the panic is what is tested
        let failed = threads.run(|| panic!("boom")).await;
        assert_eq!(failed, Err(Stopped));
        // The thread survived its job's panic.
        assert_eq!(threads.run(name).await.unwrap(), first);
    }

    #[tokio::test]
    async fn one_request_after_the_other_runs_on_the_same_thread() {
        let threads = OcrThreads::start(3, || {});
        let name = || std::thread::current().name().map(str::to_owned);
        let first = threads.run(name).await.unwrap();
        for _ in 0..5 {
            assert_eq!(threads.run(name).await.unwrap(), first);
        }
    }
}
