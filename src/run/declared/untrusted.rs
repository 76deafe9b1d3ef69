//! Output fields a command marks `untrusted` (external content: a file's text, a web page, what
//! another user wrote) are moved out of the result into one `untrusted` object beside the
//! tool's own fields, in every profile and for every item of a list: an agent reads the tool's
//! words and the outside world's apart, and an instruction hidden in a note's body cannot pose
//! as the tool's metadata.

use pas_spec::Command;
use serde_json::{Map, Value};

use crate::reply::{Body, Encoding, Reply};

/// The key the untrusted fields are moved under.
pub(crate) const UNTRUSTED_KEY: &str = "untrusted";

/// The reply with the command's untrusted fields moved apart (unchanged when it marks none).
pub(crate) fn separate(command: &Command, mut reply: Reply) -> Reply {
    if command.untrusted.is_empty() {
        return reply;
    }
    let fields = command.untrusted.clone();
    match &mut reply.body {
        Body::Object(object) => {
            if let Ok(bytes) = &mut object.json
                && let Some(rewritten) = rewrite(&fields, bytes)
            {
                *bytes = rewritten;
            }
        }
        Body::Stream(stream) => {
            let mut inner = std::mem::replace(&mut stream.next, Box::new(|_, _| None));
            stream.next = Box::new(move |encoding, buf| {
                let start = buf.len();
                let written = inner(encoding, buf)?;
                if encoding == Encoding::Json
                    && written.is_ok()
                    && let Some(rewritten) = rewrite(&fields, &buf.bytes()[start..])
                {
                    buf.truncate(start);
                    buf.extend_from_slice(&rewritten);
                }
                Some(written)
            });
        }
        Body::Document(_) | Body::Nothing => {}
    }
    reply
}

/// The JSON object in `bytes` with the fields moved apart; `None` when it is left as it is
/// (not an object, or it holds none of the fields).
fn rewrite(fields: &[String], bytes: &[u8]) -> Option<Vec<u8>> {
    let Ok(Value::Object(mut map)) = serde_json::from_slice::<Value>(bytes) else {
        return None;
    };
    let mut apart = Map::new();
    for field in fields {
        if let Some(value) = map.remove(field) {
            apart.insert(field.clone(), value);
        }
    }
    if apart.is_empty() {
        return None;
    }
    map.insert(UNTRUSTED_KEY.to_owned(), Value::Object(apart));
    // A map of JSON values always serialises.
    serde_json::to_vec(&Value::Object(map)).ok()
}
