//! The process's own streams and files as the runtime touches them: the real stdout and stderr
//! sinks, a closed stdout, and files read only when they are regular files.

pub(crate) mod closed_stdout;
pub(crate) mod state_file;
pub mod stdout_capture;
pub(crate) mod streams;
