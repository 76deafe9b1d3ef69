//! Twenty `todo task create` processes started at once on one store: every one succeeds and
//! every task is there afterwards (IMMEDIATE transactions, a busy timeout, a migration that
//! re-checks the version under the write lock).

mod support;

use std::collections::BTreeSet;

#[test]
fn twenty_writers_lose_nothing() {
    let env = support::Env::new();
    let children: Vec<_> = (0..20)
        .map(|i| {
            env.command(&["task", "create", "--title", &format!("writer {i}")])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("todo starts")
        })
        .collect();
    let mut ids = BTreeSet::new();
    for child in children {
        let call = support::Call::from(child.wait_with_output().unwrap());
        assert_eq!(call.exit, 0, "{call:?}");
        ids.insert(call.data()["id"].as_i64().unwrap());
    }
    assert_eq!(ids.len(), 20, "each writer got its own id");

    let list = env.call(&["task", "list", "--status", "all", "--limit", "500"]);
    let titles: BTreeSet<String> = list
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap().to_owned())
        .collect();
    let expected: BTreeSet<String> = (0..20).map(|i| format!("writer {i}")).collect();
    assert_eq!(titles, expected);
    assert_eq!(list.envelope["meta"]["total"], 20);
}
