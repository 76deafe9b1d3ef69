//! Counting words as `wc -w` does in the C locale: a word is a maximal run of bytes that are
//! not whitespace (space, tab, newline, vertical tab, form feed, carriage return). The file is
//! read in buffered chunks, never whole, and need not be UTF-8.

use std::io::{self, BufRead};

/// The number of words `reader` holds.
pub(crate) fn words(mut reader: impl BufRead) -> io::Result<u64> {
    let mut count = 0u64;
    let mut in_word = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) => return Ok(count),
            Ok(chunk) => chunk,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        for &byte in chunk {
            let space = matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
            if !space && !in_word {
                count += 1;
            }
            in_word = !space;
        }
        let len = chunk.len();
        reader.consume(len);
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn counts_like_wc() {
        let count = |text: &[u8]| words(text).unwrap();
        assert_eq!(count(b""), 0);
        assert_eq!(count(b"   \n\t"), 0);
        assert_eq!(count(b"one"), 1);
        assert_eq!(count(b" one  two\nthree\x0bfour\x0cfive\r\n"), 5);
        assert_eq!(count(b"caf\xc3\xa9 \xff\xfe bytes"), 3);
    }

    #[test]
    fn words_across_chunk_boundaries() {
        let reader = std::io::BufReader::with_capacity(3, &b"abcdef ghi jk"[..]);
        assert_eq!(words(reader).unwrap(), 3);
    }
}
