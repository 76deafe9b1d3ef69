//! Safety gates (robot 9): handlers report each gate's result; the runtime renders
//! `safety_gates{..., all_gates_passed}` and turns a failing blocking gate into the blocked code.

use pas_spec::Registry;
use pas_spec::robot::{ExitRole, GateOnFail};
use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::profile::robot_state::{CallState, GateReport};

/// Records a gate's result; a failing gate whose spec says `block` is the blocked error.
pub(crate) fn report(
    registry: &Registry,
    state: &CallState,
    name: &str,
    passed: bool,
    details: Value,
) -> Result<(), Error> {
    let Some(gate) = registry.gates().iter().find(|g| g.name == name) else {
        let known: Vec<&str> = registry.gates().iter().map(|g| g.name.as_str()).collect();
        return Err(Error::internal(format!(
            "the handler reported the gate `{name}`, which the spec does not declare (it declares: {})",
            known.join(", ")
        )));
    };
    state.lock().gates.retain(|g| g.name != name);
    state.lock().gates.push(GateReport {
        name: name.to_owned(),
        passed,
        details: details.clone(),
    });
    if passed || gate.on_fail != GateOnFail::Block {
        return Ok(());
    }
    let (code, _) = registry.role_code(ExitRole::Blocked);
    let mut all = match details {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        other => {
            let mut map = Map::new();
            map.insert("value".into(), other);
            map
        }
    };
    all.insert("gate".into(), Value::from(name));
    Err(Error::new(
        code,
        format!(
            "safety gate '{name}' blocked the action: {}",
            gate.description
        ),
    )
    .with_suggestion("change the selection so the gate passes, or wait until it does")
    .with_details(Value::Object(all)))
}

/// `safety_gates` as the envelope's data carries it, or `None` when no gate was reported.
pub(crate) fn rendered(gates: &[GateReport]) -> Option<Value> {
    if gates.is_empty() {
        return None;
    }
    let mut map = Map::new();
    for gate in gates {
        let mut entry = json!({ "passed": gate.passed });
        if let Value::Object(details) = &gate.details {
            for (key, value) in details {
                entry[key] = value.clone();
            }
        }
        map.insert(gate.name.clone(), entry);
    }
    map.insert(
        "all_gates_passed".into(),
        Value::from(gates.iter().all(|g| g.passed)),
    );
    Some(Value::Object(map))
}
