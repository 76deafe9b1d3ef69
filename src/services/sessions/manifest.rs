//! `manifest.json`: a session's state, history, completed actions and the handler's data.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::error::Error;

/// The manifest format this runtime writes; a newer one is refused, never rewritten.
pub(crate) const FORMAT: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub(crate) format: u32,
    pub(crate) session_id: String,
    pub(crate) tool: String,
    pub(crate) created_by: String,
    pub(crate) state: String,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    /// Milliseconds since the epoch of the last change (expiry reads this, not the text).
    pub(crate) updated_ms: u64,
    pub(crate) history: Vec<Transition>,
    #[serde(default)]
    pub(crate) completed: Vec<Value>,
    /// The actions the last call meant to take, in order ([`crate::Session::record_planned`]);
    /// `None` until a handler records them (a manifest of an older runtime has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) planned: Option<Vec<Value>>,
    #[serde(default)]
    pub(crate) summary: Map<String, Value>,
    #[serde(default)]
    pub(crate) data: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Transition {
    pub(crate) state: String,
    pub(crate) at: String,
}

/// Whether the completed `record` is the planned `action` done.
fn does(record: &Value, action: &Value) -> bool {
    match (record, action) {
        (Value::Object(record), Value::Object(action)) => action
            .iter()
            .all(|(key, value)| record.get(key) == Some(value)),
        _ => record == action,
    }
}

fn millis(time: SystemTime) -> u64 {
    u64::try_from(
        time.duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis(),
    )
    .unwrap_or(u64::MAX)
}

impl Manifest {
    pub(crate) fn new(id: &str, tool: &str, command: &str, state: &str, now: SystemTime) -> Self {
        let at = crate::time::rfc3339_millis(now);
        Manifest {
            format: FORMAT,
            session_id: id.to_owned(),
            tool: tool.to_owned(),
            created_by: command.to_owned(),
            state: state.to_owned(),
            created_at: at.clone(),
            updated_at: at.clone(),
            updated_ms: millis(now),
            history: vec![Transition {
                state: state.to_owned(),
                at,
            }],
            completed: Vec::new(),
            planned: None,
            summary: Map::new(),
            data: Map::new(),
        }
    }

    pub(crate) fn touch(&mut self) {
        let now = SystemTime::now();
        self.updated_at = crate::time::rfc3339_millis(now);
        self.updated_ms = millis(now);
    }

    pub(crate) fn set_state(&mut self, state: &str) {
        self.touch();
        self.state = state.to_owned();
        self.history.push(Transition {
            state: state.to_owned(),
            at: self.updated_at.clone(),
        });
    }

    /// The planned actions no completed action has done yet, in plan order (robot 7.3's
    /// `remaining`); `None` when no plan was recorded. A completed action does a planned one
    /// when it is equal to it or, for objects, has each of its fields with the same value (a
    /// record of what happened holds the plan's fields and adds its result).
    pub(crate) fn remaining(&self) -> Option<Vec<Value>> {
        let planned = self.planned.as_ref()?;
        let mut done: Vec<&Value> = self.completed.iter().collect();
        let mut remaining = Vec::new();
        for action in planned {
            // Each completed record does one planned action: two equal plans need two records.
            match done.iter().position(|record| does(record, action)) {
                Some(at) => {
                    done.remove(at);
                }
                None => remaining.push(action.clone()),
            }
        }
        Some(remaining)
    }

    pub(crate) fn age_ms(&self, now: SystemTime) -> u64 {
        millis(now).saturating_sub(self.updated_ms)
    }

    /// A state no transition leaves (complete, failed, expired...).
    pub(crate) fn is_final(&self, spec: &pas_spec::robot::Sessions) -> bool {
        spec.state(&self.state).is_none_or(|s| s.next.is_empty())
    }

    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// Reads a manifest, refusing (with the session error naming the file) one that is not
    /// JSON, is truncated, lacks fields, or was written by a newer format.
    pub(crate) fn parse(bytes: &[u8], path: &Path, code: &str) -> Result<Manifest, Error> {
        let refuse = |why: String| {
            Error::new(
                code.to_owned(),
                format!("session file {} {why}", path.display()),
            )
            .with_suggestion("the file is left as it is; move it away or start a new session")
            .with_details(json!({ "path": path.display().to_string() }))
        };
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| refuse(format!("is corrupt or truncated ({e})")))?;
        let format = value.get("format").and_then(Value::as_u64).unwrap_or(0);
        if format > u64::from(FORMAT) {
            return Err(refuse(format!(
                "has format {format}, newer than this tool reads ({FORMAT})"
            )));
        }
        serde_json::from_value(value)
            .map_err(|e| refuse(format!("is not a session manifest ({e})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest::new("pt-1", "pt", "apply", "planned", SystemTime::now())
    }

    #[test]
    fn remaining_is_unknown_without_a_plan() {
        assert_eq!(manifest().remaining(), None);
    }

    #[test]
    fn remaining_is_the_plan_less_what_a_record_did_in_plan_order() {
        let mut m = manifest();
        m.planned = Some(vec![
            json!({"pid": 1, "action": "kill"}),
            json!({"pid": 2, "action": "kill"}),
            json!({"pid": 3, "action": "kill"}),
        ]);
        // A record holds the planned fields and adds its result; order of records is free.
        m.completed = vec![
            json!({"pid": 3, "action": "kill", "result": "success"}),
            json!({"pid": 1, "action": "kill", "result": "skipped"}),
        ];
        assert_eq!(
            m.remaining(),
            Some(vec![json!({"pid": 2, "action": "kill"})])
        );
    }

    #[test]
    fn each_record_does_one_planned_action() {
        let mut m = manifest();
        m.planned = Some(vec![json!(7), json!(7), json!(8)]);
        m.completed = vec![json!(7)];
        assert_eq!(m.remaining(), Some(vec![json!(7), json!(8)]));
        // A record with another value of a planned field is not that action.
        m.planned = Some(vec![json!({"pid": 7, "start_id": "a"})]);
        m.completed = vec![json!({"pid": 7, "start_id": "b"})];
        assert_eq!(m.remaining(), m.planned.clone());
    }

    #[test]
    fn a_manifest_without_a_plan_reads_and_writes_without_one() {
        let m = manifest();
        let text = String::from_utf8(m.to_bytes()).unwrap();
        assert!(!text.contains("planned\":"), "{text}");
        let read = Manifest::parse(text.as_bytes(), Path::new("m.json"), "ERR").unwrap();
        assert_eq!(read.planned, None);
    }
}
