//! `cat`, `stat` and `rm` with several paths (CLI Agent Spec 70): each path is run exactly as
//! the one-path call would be, in the order given, and answers one item of a list:
//! `{"path", "ok": true, "result": ...}` or `{"path", "ok": false, "error": {code, message,
//! hint}}`. A failed path never stops the others; when any failed, the list ends with an error
//! (the first failure's code, so its exit code and retry hints hold) that names every failed
//! path, so the call as a whole is not a success. One path keeps the PAS shape: the object itself.

use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::reply::Reply;
use crate::reply::items::Items;

/// The key of an item's result, and of its error.
const RESULT: &str = "result";
const ERROR: &str = "error";

/// One item per path, in order, then the error of the first failure when any failed.
pub(crate) fn results(paths: &[String], one: impl Fn(&str) -> Result<Value, Error>) -> Reply {
    let mut items: Vec<Result<Value, Error>> = Vec::with_capacity(paths.len() + 1);
    let mut failed: Vec<(String, Error)> = Vec::new();
    for path in paths {
        let mut item = Map::new();
        item.insert("path".into(), path.clone().into());
        match one(path) {
            Ok(result) => {
                item.insert("ok".into(), true.into());
                item.insert(RESULT.into(), result);
            }
            Err(error) => {
                item.insert("ok".into(), false.into());
                item.insert(ERROR.into(), error_json(&error));
                failed.push((path.clone(), error));
            }
        }
        items.push(Ok(Value::Object(item)));
    }
    let results: Vec<Value> = items
        .iter()
        .filter_map(|i| i.as_ref().ok().cloned())
        .collect();
    if let Some(end) = ending(results, failed) {
        items.push(Err(end));
    }
    Items::new(items).into_list()
}

fn error_json(error: &Error) -> Value {
    let mut body = json!({ "code": error.code(), "message": error.message() });
    if let Some(hint) = error.suggestion() {
        body["hint"] = hint.into();
    }
    if let Some(details) = error.details() {
        body["details"] = details.clone();
    }
    body
}

/// The error that ends a list with failed paths: the first failure, its message saying how
/// many of the paths failed, every failed path in `details.failed`, and every item again in
/// `details.results` (an error envelope that holds no data, compose's, still has them all).
fn ending(results: Vec<Value>, failed: Vec<(String, Error)>) -> Option<Error> {
    let total = results.len();
    let count = failed.len();
    let names: Vec<String> = failed.iter().map(|(path, _)| path.clone()).collect();
    let (first_path, first) = failed.into_iter().next()?;
    let message = format!(
        "{count} of {total} paths failed ({}); the first, {first_path}: {}",
        names.join(", "),
        first.message()
    );
    let hint = first.suggestion().map(str::to_owned).unwrap_or_else(|| {
        "each item says whether its path succeeded; retry only the failed paths".to_owned()
    });
    let mut end = Error::new(first.code().to_owned(), message)
        .with_suggestion(hint)
        .with_details(json!({ "failed": names, "total": total, "results": results }))
        .with_retryable(first.retryable());
    if let Some(after) = first.retry_after_ms() {
        end = end.with_retry_after_ms(after);
    }
    Some(end)
}
