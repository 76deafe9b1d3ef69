//! One handler per command of specs/todo.yaml. Each opens the store named by `--db` (or
//! `TODO_DB`, or the XDG default the app sets), does one thing, and returns a typed reply.

use std::path::PathBuf;

use pas::{Args, Context, Error, Page, Reply, codes};

use crate::input;
use crate::store::{Filter, INVALID_CURSOR, Store};

/// The largest page `task.list` gives.
pub const MAX_LIMIT: i64 = 500;

pub fn db_path(args: &Args) -> Result<PathBuf, Error> {
    Ok(PathBuf::from(args.require::<String>("db")?))
}

fn store(args: &Args) -> Result<Store, Error> {
    Store::open(&db_path(args)?)
}

pub fn create(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let fields = input::read(args, ctx)?;
    let task = store(args)?.create(&fields, ctx.dry_run())?;
    Ok(Reply::object(&task))
}

pub fn list(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let limit: i64 = args.get("limit")?.unwrap_or(50);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!("--limit must be 1 to {MAX_LIMIT}, not {limit}"),
        )
        .with_suggestion("page with --limit 50 and the cursor in meta.cursor"));
    }
    let after = match args.get::<String>("cursor")? {
        None => 0,
        Some(cursor) => decode_cursor(&cursor)?,
    };
    let filter = Filter {
        status: args
            .get::<String>("status")?
            .unwrap_or_else(|| "open".into()),
        tag: args.get("tag")?,
        limit: u32::try_from(limit).unwrap_or(50),
        after,
    };
    let page = store(args)?.list(&filter)?;
    let meta = Page {
        total: Some(page.total),
        has_more: page.next.is_some(),
        next_cursor: page.next.map(encode_cursor),
    };
    Ok(Reply::page(page.items.into_iter().map(Ok), meta))
}

pub fn get(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let id: i64 = args.require("id")?;
    Ok(Reply::object(&store(args)?.get(id)?))
}

pub fn update(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let id: i64 = args.require("id")?;
    let fields = input::read(args, ctx)?;
    let task = store(args)?.update(id, &fields, ctx.dry_run())?;
    Ok(Reply::object(&task))
}

pub fn done(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let id: i64 = args.require("id")?;
    Ok(Reply::object(&store(args)?.done(id, ctx.dry_run())?))
}

pub fn delete(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let id: i64 = args.require("id")?;
    Ok(Reply::object(&store(args)?.delete(id, ctx.dry_run())?))
}

/// A cursor is opaque to callers: `c` and the last id of the previous page, in base 36.
fn encode_cursor(id: i64) -> String {
    let mut n = u64::try_from(id).unwrap_or(0);
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit((n % 36) as u32, 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.push('c');
    digits.into_iter().rev().collect()
}

fn decode_cursor(cursor: &str) -> Result<i64, Error> {
    cursor
        .strip_prefix('c')
        .and_then(|digits| i64::from_str_radix(digits, 36).ok())
        .filter(|id| *id >= 0)
        .ok_or_else(|| {
            Error::new(
                INVALID_CURSOR,
                format!("`{cursor}` is not a cursor todo gave"),
            )
            .with_suggestion("list again without --cursor, then pass the meta.cursor it returns")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip() {
        for id in [0, 1, 35, 36, 1000, i64::from(u32::MAX)] {
            assert_eq!(decode_cursor(&encode_cursor(id)).unwrap(), id);
        }
        assert!(decode_cursor("x12").is_err());
        assert!(decode_cursor("c").is_err());
    }
}
