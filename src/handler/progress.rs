//! Progress for long handlers: a bar for people at a terminal, NDJSON events for agents on
//! event-stream commands, and nothing otherwise (PAS 2.1.3: no bars, spinners or dynamic lines
//! in agent mode). The profile picks which; the handler code is the same in every case.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget};
use serde::Serialize;

use crate::end::call_state::Shared;
use crate::profile::ProgressStyle;

/// A progress reporter from [`crate::handler::context::Context::progress`]. Cheap when silent.
pub struct Progress {
    inner: Inner,
}

enum Inner {
    Bar(ProgressBar),
    Events(Events),
    /// A job's detached run: the whole percentage goes into the job's manifest, where
    /// `job status` reads it as `progress_pct`.
    Job(JobProgress),
    Silent,
}

struct JobProgress {
    tool: String,
    id: &'static str,
    record: crate::services::jobs::run::RecordProgress,
    total: Option<u64>,
    position: Cell<u64>,
    last_percent: Cell<Option<u64>>,
}

impl JobProgress {
    fn moved(&self, position: u64) {
        self.position.set(position);
        let Some(total) = self.total.filter(|t| *t > 0) else {
            return;
        };
        let percent = position.min(total).saturating_mul(100) / total;
        if self.last_percent.replace(Some(percent)) != Some(percent) {
            (self.record)(&self.tool, self.id, percent);
        }
    }
}

struct Events {
    shared: Arc<Shared>,
    total: Option<u64>,
    position: Cell<u64>,
    last_percent: Cell<Option<u64>>,
    message: RefCell<Option<String>>,
}

#[derive(Serialize)]
struct Event<'a> {
    event: &'static str,
    position: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    done: bool,
}

impl Progress {
    pub(crate) fn new(style: ProgressStyle, shared: Arc<Shared>, total: Option<u64>) -> Self {
        if let Some((id, record)) = crate::services::jobs::run::claimed() {
            return Progress {
                inner: Inner::Job(JobProgress {
                    tool: shared.registry.name.clone(),
                    id,
                    record,
                    total,
                    position: Cell::new(0),
                    last_percent: Cell::new(None),
                }),
            };
        }
        let inner = match style {
            ProgressStyle::Bar => {
                let bar = match total {
                    Some(total) => {
                        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                    }
                    None => {
                        ProgressBar::new_spinner().with_finish(indicatif::ProgressFinish::AndClear)
                    }
                };
                Inner::Bar(bar)
            }
            ProgressStyle::Events => Inner::Events(Events {
                shared,
                total,
                position: Cell::new(0),
                last_percent: Cell::new(None),
                message: RefCell::new(None),
            }),
            ProgressStyle::Silent => Inner::Silent,
        };
        Progress { inner }
    }

    /// Moves the position forward by `delta` units of the total given to
    /// [`crate::handler::context::Context::progress`] (a bar redraws; events are written when the whole percentage
    /// changes, every move when the total is unknown).
    pub fn inc(&self, delta: u64) {
        match &self.inner {
            Inner::Bar(bar) => bar.inc(delta),
            Inner::Events(events) => events.moved(events.position.get().saturating_add(delta)),
            Inner::Job(job) => job.moved(job.position.get().saturating_add(delta)),
            Inner::Silent => {}
        }
    }

    /// Sets the position to `position` units of the total (for work whose progress is read from
    /// elsewhere, like a byte offset).
    pub fn set_position(&self, position: u64) {
        match &self.inner {
            Inner::Bar(bar) => bar.set_position(position),
            Inner::Events(events) => events.moved(position),
            Inner::Job(job) => job.moved(position),
            Inner::Silent => {}
        }
    }

    /// Says what is being done now (always reported as an event).
    pub fn set_message(&self, message: impl Into<String>) {
        let message = message.into();
        match &self.inner {
            Inner::Bar(bar) => bar.set_message(message),
            Inner::Events(events) => {
                *events.message.borrow_mut() = Some(message);
                events.emit(false);
            }
            Inner::Job(_) | Inner::Silent => {}
        }
    }

    /// Ends the progress: the bar disappears; agents get a last event with `"done":true`.
    pub fn finish(self) {
        match &self.inner {
            Inner::Bar(bar) => bar.finish_and_clear(),
            Inner::Events(events) => events.emit(true),
            Inner::Job(_) | Inner::Silent => {}
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Inner::Bar(bar) = &self.inner
            && !bar.is_finished()
        {
            bar.finish_and_clear();
        }
    }
}

impl Events {
    /// Reports a move when the whole percent changes (or every move when the total is
    /// unknown), so a million increments do not become a million lines.
    fn moved(&self, position: u64) {
        self.position.set(position);
        match self.total {
            Some(total) if total > 0 => {
                let percent = position.min(total).saturating_mul(100) / total;
                if self.last_percent.get() != Some(percent) {
                    self.last_percent.set(Some(percent));
                    self.emit(false);
                }
            }
            _ => self.emit(false),
        }
    }

    fn emit(&self, done: bool) {
        let message = self.message.borrow();
        let event = Event {
            event: "progress",
            position: self.position.get(),
            total: self.total,
            message: message.as_deref(),
            done,
        };
        let Ok(line) = serde_json::to_vec(&event) else {
            return;
        };
        // Over MCP stdout is the protocol's: the event becomes a progress notification.
        if let Some(hooks) = &self.shared.mcp {
            (hooks.progress)(&line);
            return;
        }
        let mut output = self.shared.lock();
        let output = &mut *output;
        // A closed stdout is noticed (and ends the call quietly) at the next result line.
        let _ = output.profile.progress_event(&mut output.sinks, &line);
    }
}
