//! The rest of a list past the output bound (`crate::guards::output_limit`): the item the bound refused
//! and every item after it, scrubbed as stdout's items are, written to a file
//! (`crate::guards::output_file`), one a line, so the bound loses nothing. Items are written as they
//! are made: memory stays flat whatever the rest's size.
//!
//! When no file can be written, the rest goes to the profile as the items before it did (the
//! whole list is printed) and the caller warns that the bound could not be kept.

use std::io;

use super::batched::{SPARE, next_line};
use super::cap::Cap;
use crate::end::call_state::{Shared, Stop};
use crate::end::panics;
use crate::guards::output_file::{OutputFile, Pointer};
use crate::reply::{Encoding, Stream};

/// How the rest of a list went.
pub(super) enum Rest {
    /// In a file.
    InFile(Pointer),
    /// To the profile, since no file could be written (the error says why).
    Printed(io::Error),
}

/// Writes `first` (the refused item, scrubbed, maybe with its newline) and the rest of
/// `stream`; the handler's failure or a stop ends it as it ends a list.
pub(super) fn rest(
    shared: &Shared,
    stream: &mut Stream,
    encoding: Encoding,
    cap: &mut Cap,
    first: Vec<u8>,
) -> Result<Rest, Stop> {
    let media_type = match encoding {
        Encoding::Json => "application/x-ndjson",
        Encoding::Human => "text/plain",
    };
    let tool = shared.registry.light().name.clone();
    let mut file = match OutputFile::create(&tool, media_type) {
        Ok(file) => file,
        Err(error) => {
            printed(shared, stream, encoding, cap, first)?;
            return Ok(Rest::Printed(error));
        }
    };
    let mut line = Vec::with_capacity(1024);
    let caught = panics::catch(|| -> Result<(), Stop> {
        let mut item = first;
        if item.last() != Some(&b'\n') {
            item.push(b'\n');
        }
        file.write(&item).map_err(file_error)?;
        while next_line(shared, stream, encoding, &mut line)? {
            cap.scrub(&mut line, 1);
            line.push(b'\n');
            file.write(&line[1..]).map_err(file_error)?;
        }
        Ok(())
    });
    caught.unwrap_or_else(|error| Err(Stop::Failed(error)))?;
    let pointer = file.finish("The rest of the list").map_err(file_error)?;
    Ok(Rest::InFile(pointer))
}

/// The rest to the profile, item by item, when no file could be written.
fn printed(
    shared: &Shared,
    stream: &mut Stream,
    encoding: Encoding,
    cap: &mut Cap,
    first: Vec<u8>,
) -> Result<(), Stop> {
    let kind = stream.kind;
    let mut line = Vec::with_capacity(first.len() + 1);
    line.push(SPARE);
    line.extend_from_slice(first.strip_suffix(b"\n").unwrap_or(&first));
    let caught = panics::catch(|| -> Result<(), Stop> {
        loop {
            {
                let mut output = shared.lock();
                let output = &mut *output;
                output
                    .profile
                    .stream_item(&mut output.sinks, kind, &line[1..])?;
            }
            if !next_line(shared, stream, encoding, &mut line)? {
                return Ok(());
            }
            cap.scrub(&mut line, 1);
        }
    });
    caught.unwrap_or_else(|error| Err(Stop::Failed(error)))
}

fn file_error(error: io::Error) -> Stop {
    Stop::Failed(
        crate::error::Error::general(format!(
            "the rest of the list past the output bound could not be written to its file: {error}"
        ))
        .with_suggestion(
            "free space in the cache directory (XDG_CACHE_HOME), or call without --max-output",
        ),
    )
}
