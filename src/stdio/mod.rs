//! The process's own streams and files as the runtime touches them: the real stdout and stderr
//! sinks, a closed stdout, and files read only when they are regular files.

pub(crate) mod closed_stdout;
pub(crate) mod state_file;
#[cfg(test)]
pub(crate) mod state_file_props;
pub(crate) mod streams;
