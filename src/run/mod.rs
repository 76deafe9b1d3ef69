//! The one pipeline both transports run: `App` and its tables, the checks a call passes before
//! its handler (declared requirements, scope, lock, stdin body, robot preparation, jobs), then
//! the handler itself.

pub(crate) mod app;
pub(crate) mod command_limits;
pub(crate) mod data_pass;
pub(crate) mod declared;
pub(crate) mod declared_lock;
pub(crate) mod from_tool;
pub(crate) mod guard;
pub(crate) mod invoke;
pub(crate) mod jobs;
pub(crate) mod robot_prepare;
pub(crate) mod rooms;
pub(crate) mod scope_check;
pub(crate) mod stdin_body;
pub(crate) mod undeclared;
pub(crate) mod validate_only;
