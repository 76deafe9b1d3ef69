//! `todo`: a task tracker on SQLite, built from specs/todo.yaml in the compose profile.
//!
//! The spec is the single source: it builds the clap parser, the `tools` catalog and the
//! exit-code table; this crate only adds the handlers, the health checks and the store's
//! default path (the XDG data directory, which a spec cannot know).

mod handlers;
mod health;
mod input;
mod store;
mod task;

use std::process::ExitCode;

use pas::App;
use pas::spec::{Format, Registry, Source, load};

/// The spec, embedded at compile time.
const SPEC: &str = include_str!("../../../specs/todo.yaml");

fn registry() -> Registry {
    load::parse(&Source::new("specs/todo.yaml", SPEC, Format::Yaml))
        .expect("specs/todo.yaml is checked by the tests")
}

fn app() -> App {
    let registry = registry();
    let default_db = store::default_path().display().to_string();
    let command = pas::clap_face::command_from_registry(&registry)
        .mut_arg("db", |arg| arg.default_value(default_db));
    App::with_command(registry, command)
        .handler("task.create", handlers::create)
        .handler("task.list", handlers::list)
        .handler("task.get", handlers::get)
        .handler("task.update", handlers::update)
        .handler("task.done", handlers::done)
        .handler("task.delete", handlers::delete)
        .health_check("store", health::store_reachable)
        .health_check("writable", health::store_writable)
        .health_check("schema", health::schema_current)
}

fn main() -> ExitCode {
    app().run()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_command_has_a_handler() {
        assert!(super::app().missing_handlers().is_empty());
    }
}
