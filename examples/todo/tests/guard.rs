//! `task delete` is destructive: without `--force` the runtime refuses it before the handler
//! runs, so the store is byte for byte what it was (issue 19); with `--force` it deletes.

mod support;

use support::Env;

#[test]
fn refused_delete_changes_nothing() {
    let env = Env::new();
    let created = env.call(&["task", "create", "--title", "Keep me"]);
    assert_eq!(created.exit, 0, "{created:?}");
    let id = created.data()["id"].to_string();
    let before = std::fs::read(env.db()).unwrap();
    let listed = env.call(&["task", "list"]).envelope["data"].clone();

    let refused = env.call(&["task", "delete", &id]);
    assert_eq!((refused.exit, refused.code()), (1, "FORCE_REQUIRED"));
    assert_eq!(
        refused.envelope["error"]["hint"],
        format!(
            "add --force to confirm: `todo task delete --force {id}`, or --dry-run to see what it would do"
        )
    );
    assert!(refused.stderr.is_empty(), "{}", refused.stderr);
    assert_eq!(
        std::fs::read(env.db()).unwrap(),
        before,
        "the store is unchanged"
    );
    assert_eq!(env.call(&["task", "list"]).envelope["data"], listed);

    let deleted = env.call(&["task", "delete", &id, "--force"]);
    assert_eq!(deleted.exit, 0, "{deleted:?}");
    assert_eq!(deleted.data()["deleted"], true);
    assert_eq!(env.call(&["task", "get", &id]).code(), "TASK_NOT_FOUND");
}
