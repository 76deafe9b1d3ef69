//! What argv, the environment and the configuration file say, read into plain data: the prescan
//! of argv, the clap face of the registry and the runtime's flags, paths, page sizes, fields.
//! Parsing imports only the ground (`error`, `codes`, `xdg`, `stdio`).

pub mod argv;
pub(crate) mod bare_call;
pub(crate) mod builtin_flag;
pub(crate) mod clap_augment;
pub mod clap_face;
pub(crate) mod command_path;
pub(crate) mod config_file;
pub(crate) mod config_sources;
pub(crate) mod corrected_input;
pub(crate) mod cwd;
pub(crate) mod env_values;
pub(crate) mod fields;
pub(crate) mod flag_args;
pub(crate) mod flag_place;
pub(crate) mod input_file;
pub(crate) mod job_id;
pub mod level;
pub(crate) mod mcp_options;
pub(crate) mod names;
pub(crate) mod page_limit;
pub(crate) mod parse_error;
pub(crate) mod robot_flags;
pub(crate) mod stdin_ids;
