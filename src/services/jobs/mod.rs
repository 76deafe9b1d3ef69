//! The job store and the detached run of a job (`output: job`): plain records on disk, read by
//! `TOOL job status|cancel|list`, by MCP's `tasks/get|cancel` and by the call that started the
//! job.

pub(crate) mod follow;
pub(crate) mod run;
pub(crate) mod stop;
pub(crate) mod store;
