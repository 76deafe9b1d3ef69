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
            if let Ok(bytes) = &mut object.json {
                rewrite(&fields, bytes, 0);
            }
        }
        Body::Stream(stream) => {
            let mut inner = std::mem::replace(&mut stream.next, Box::new(|_, _| None));
            stream.next = Box::new(move |encoding, buf| {
                let start = buf.len();
                let written = inner(encoding, buf)?;
                if encoding == Encoding::Json && written.is_ok() {
                    rewrite(&fields, buf, start);
                }
                Some(written)
            });
        }
        Body::Document(_) | Body::Nothing => {}
    }
    reply
}

/// Rewrites the JSON object in `buf[start..]` in place; anything that is not an object (or
/// holds none of the fields) is left as it is.
fn rewrite(fields: &[String], buf: &mut Vec<u8>, start: usize) {
    let Ok(Value::Object(mut map)) = serde_json::from_slice::<Value>(&buf[start..]) else {
        return;
    };
    let mut apart = Map::new();
    for field in fields {
        if let Some(value) = map.remove(field) {
            apart.insert(field.clone(), value);
        }
    }
    if apart.is_empty() {
        return;
    }
    map.insert(UNTRUSTED_KEY.to_owned(), Value::Object(apart));
    buf.truncate(start);
    // A map of JSON values always serialises.
    let _ = serde_json::to_writer(&mut *buf, &Value::Object(map));
}
