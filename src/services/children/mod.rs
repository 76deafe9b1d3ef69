//! Child processes a handler starts, and their descendants, ended with the call (failure mode
//! 17): the process group, the subreaper, the kept-children file.

pub(crate) mod descendants;
pub(crate) mod kept_children;
pub mod process;
