//! The requests of `TOOL mcp` waiting for a slot: at most [`MAX_CALLS`] run at once, at most
//! [`MAX_WAITING`] wait, and a call that blocks never starves the others:
//!
//! - a cancel for a waiting request takes it out of the queue: it never runs
//!   ([`Queue::withdraw`]);
//! - a call past its time limit, or cancelled and not stopping, gives its slot back
//!   ([`Slot::abandon`]); its thread is left to end on its own (a read blocked on a FIFO cannot
//!   be interrupted), counted as stuck, and its late reply goes nowhere. With [`MAX_STUCK`]
//!   threads stuck the server takes no more calls (each new one is refused at once, saying
//!   so) rather than grow without bound;
//! - when the session ended and rmcp wrote what it could, the requests still waiting are
//!   answered as not run ([`Queue::close`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::{Map, Value};

/// The most requests served at once, each on a thread of its own; more wait for a free one.
pub const MAX_CALLS: usize = 16;
/// The most requests waiting for a slot; one more is refused at once (retryable).
pub const MAX_WAITING: usize = 256;
/// The most calls left running past their limit or cancel; past that, calls are refused.
pub const MAX_STUCK: usize = 64;

// A job and its parts are defined here, with what holds them, so that the executor depends
// on the queue and the queue never on the executor.

/// Whether the client cancelled the call (or the server is closing).
pub(crate) type Cancelled = Arc<dyn Fn() -> bool + Send + Sync>;
/// One progress notification's `progress`, `total` and `message`, to the client.
pub(crate) type ProgressSink = Arc<dyn Fn(Value) + Send + Sync>;
/// The answer to a job, back to the protocol thread.
pub(crate) type Answer = Box<dyn FnOnce(Result<Value, Refused>) + Send>;

/// What the protocol thread asks of the handler thread.
pub(crate) enum Request {
    Call {
        tool: String,
        arguments: Map<String, Value>,
        continuation: Option<String>,
        /// The caller's limit for this call (`_meta: {"pas-kit/timeout": SECONDS}`): `None` when
        /// not given (the server's `--timeout`/`PAS_TIMEOUT` stands in), `Some(None)` for `0`.
        timeout: Option<Option<Duration>>,
        /// The caller's output bound (`_meta: {"pas-kit/maxOutputBytes": N}`), as given.
        max_output: Option<Value>,
        /// The client takes tasks (SEP-2663): a job command starts detached as a task.
        task: bool,
    },
    /// `tasks/get` (or `tasks/cancel`, when `cancel`) of the task that is job `id`.
    Task {
        id: String,
        cancel: bool,
    },
    ReadResource {
        uri: String,
    },
    ListResources {
        cursor: Option<String>,
    },
}

/// A request that the protocol answers with a JSON-RPC error rather than a result.
pub(crate) struct Refused {
    pub(crate) code: i32,
    pub(crate) message: String,
}

/// One request with the ways back to its client.
pub(crate) struct Job {
    pub(crate) request: Request,
    pub(crate) cancelled: Cancelled,
    /// One progress notification's `progress`, `total` and `message`.
    pub(crate) progress: ProgressSink,
    pub(crate) reply: Answer,
    /// Told when the request starts (it may wait for a slot before).
    pub(crate) started: Box<dyn FnOnce(Started) + Send>,
}

/// A request that started: its slot, and the call's time limit with the result it ends with
/// when the limit passes first.
pub(crate) struct Started {
    pub(crate) slot: Arc<Slot>,
    pub(crate) limit: Option<Duration>,
    pub(crate) on_timeout: Option<Box<dyn FnOnce() -> Value + Send>>,
}

/// What the executor does next.
pub(crate) enum Next {
    /// Run this request in this slot.
    Run(Job, Arc<Slot>),
    /// Answer this request as not run: the session is ending.
    Refuse(Job),
    /// The session ended and nothing waits.
    End,
}

/// Why a request was not queued.
pub(crate) enum Full {
    /// [`MAX_WAITING`] requests wait already.
    Waiting,
    /// [`MAX_STUCK`] calls never returned.
    Stuck,
    /// The session is ending.
    Closed,
}

#[derive(Default)]
struct State {
    waiting: VecDeque<(u64, Job)>,
    next: u64,
    running: usize,
    stuck: usize,
    closed: bool,
}

/// The queue, shared by the protocol thread (which adds and withdraws) and the executor
/// (which takes).
#[derive(Default)]
pub(crate) struct Queue {
    state: Mutex<State>,
    changed: Condvar,
}

/// A running request's slot. Given back once, by whichever comes first: the call's end
/// ([`Slot::finished`]) or the protocol giving up on it ([`Slot::abandon`]).
pub(crate) struct Slot {
    queue: Arc<Queue>,
    state: AtomicU8,
}

const RUNNING: u8 = 0;
const FINISHED: u8 = 1;
const ABANDONED: u8 = 2;

impl Queue {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Every critical section is a push, a pop or a count: consistent after any panic.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a request; its number withdraws it. A request refused is dropped (its answer
    /// channel with it): the caller answers with the reason.
    pub(crate) fn push(&self, job: Job) -> Result<u64, Full> {
        let mut state = self.lock();
        if state.closed {
            return Err(Full::Closed);
        }
        if state.stuck >= MAX_STUCK {
            return Err(Full::Stuck);
        }
        if state.waiting.len() >= MAX_WAITING {
            return Err(Full::Waiting);
        }
        state.next += 1;
        let number = state.next;
        state.waiting.push_back((number, job));
        drop(state);
        self.changed.notify_all();
        Ok(number)
    }

    /// Takes a request out of the queue if it has not started (its client cancelled it).
    pub(crate) fn withdraw(&self, number: u64) -> Option<Job> {
        let mut state = self.lock();
        let at = state.waiting.iter().position(|(n, _)| *n == number)?;
        state.waiting.remove(at).map(|(_, job)| job)
    }

    /// The next request and its slot, once a slot is free; once the queue is closed, each
    /// request still waiting (to answer as not run), then the end.
    pub(crate) fn next(self: &Arc<Self>) -> Next {
        let mut state = self.lock();
        loop {
            if state.closed {
                return match state.waiting.pop_front() {
                    Some((_, job)) => Next::Refuse(job),
                    None => Next::End,
                };
            }
            if state.running < MAX_CALLS
                && let Some((_, job)) = state.waiting.pop_front()
            {
                state.running += 1;
                let slot = Arc::new(Slot {
                    queue: self.clone(),
                    state: AtomicU8::new(RUNNING),
                });
                return Next::Run(job, slot);
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Ends the queue: nothing more is queued or started, and [`Queue::next`] hands out the
    /// requests still waiting to be answered as not run.
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// How many requests run and how many threads are stuck (for tests and diagnostics).
    #[cfg(test)]
    fn counts(&self) -> (usize, usize, usize) {
        let state = self.lock();
        (state.waiting.len(), state.running, state.stuck)
    }
}

impl Slot {
    /// The call returned: its slot is free (or, if the protocol gave up on it, it is no longer
    /// stuck).
    pub(crate) fn finished(&self) {
        let before = self.state.swap(FINISHED, Ordering::SeqCst);
        let mut state = self.queue.lock();
        match before {
            RUNNING => state.running -= 1,
            ABANDONED => state.stuck -= 1,
            _ => return,
        }
        drop(state);
        self.queue.changed.notify_all();
    }

    /// The protocol gave up on the call (time limit, cancel): the slot is free for the next
    /// request, and the thread counts as stuck until it returns.
    pub(crate) fn abandon(&self) {
        if self
            .state
            .compare_exchange(RUNNING, ABANDONED, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return;
        }
        let mut state = self.queue.lock();
        state.running -= 1;
        state.stuck += 1;
        drop(state);
        self.queue.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> Job {
        Job {
            request: Request::ListResources { cursor: None },
            cancelled: Arc::new(|| false),
            progress: Arc::new(|_| {}),
            reply: Box::new(|_| {}),
            started: Box::new(|_| {}),
        }
    }

    fn run(queue: &Arc<Queue>) -> Arc<Slot> {
        match queue.next() {
            Next::Run(_, slot) => slot,
            _ => panic!("a request to run"),
        }
    }

    #[test]
    fn a_withdrawn_request_never_runs_and_an_abandoned_slot_is_free() {
        let queue = Arc::new(Queue::default());
        let first = queue.push(job()).ok().unwrap();
        let second = queue.push(job()).ok().unwrap();
        assert!(queue.withdraw(first).is_some());
        assert!(queue.withdraw(first).is_none());
        let slot = run(&queue);
        assert_eq!(queue.counts(), (0, 1, 0));
        assert!(queue.withdraw(second).is_none(), "a started request stays");
        slot.abandon();
        assert_eq!(queue.counts(), (0, 0, 1));
        slot.finished();
        assert_eq!(queue.counts(), (0, 0, 0));
        slot.finished();
        slot.abandon();
        assert_eq!(queue.counts(), (0, 0, 0), "a slot is given back once");
    }

    #[test]
    fn slots_bound_the_running_calls_and_close_returns_the_waiting() {
        let queue = Arc::new(Queue::default());
        for _ in 0..MAX_CALLS + 2 {
            assert!(queue.push(job()).is_ok());
        }
        let slots: Vec<_> = (0..MAX_CALLS).map(|_| run(&queue)).collect();
        assert_eq!(queue.counts(), (2, MAX_CALLS, 0));
        slots[0].abandon();
        let next = run(&queue);
        assert_eq!(queue.counts(), (1, MAX_CALLS, 1));
        next.finished();
        queue.close();
        assert!(matches!(queue.next(), Next::Refuse(_)));
        assert!(matches!(queue.next(), Next::End));
        assert!(matches!(queue.push(job()), Err(Full::Closed)));
    }

    #[test]
    fn stuck_calls_past_the_bound_refuse_new_ones() {
        let queue = Arc::new(Queue::default());
        for _ in 0..MAX_STUCK {
            queue.push(job()).ok().unwrap();
            run(&queue).abandon();
        }
        assert!(matches!(queue.push(job()), Err(Full::Stuck)));
    }
}
