//! Template filters: spec text reaches a scaffolded file only through the escaping of the file's
//! language. minijinja's auto-escaping knows HTML, not Rust, TOML or Markdown, so every value a
//! template prints goes through one of these.

use minijinja::Environment;

/// Registers every filter on `env`.
pub fn install(env: &mut Environment<'_>) {
    env.add_filter("rust_str", rust_str);
    env.add_filter("rust_doc", rust_doc);
    env.add_filter("rust_comment", rust_comment);
    env.add_filter("toml", toml);
    env.add_filter("md", md);
    env.add_filter("md_code", md_code);
    env.add_filter("fence", fence);
}

/// A Rust string literal whose value is exactly `text` (proc_macro2 escapes quotes,
/// backslashes, NUL, newlines and invisible characters).
pub fn rust_str(text: String) -> String {
    proc_macro2::Literal::string(&text).to_string()
}

/// `///` doc comment lines, indented; characters a doc comment may not hold are escaped.
pub fn rust_doc(text: String, indent: String) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&indent);
        out.push_str("/// ");
        out.push_str(&rust_comment(line.to_owned()));
    }
    out
}

/// Text safe inside a `//` line comment: one line, control characters and direction marks
/// escaped.
pub fn rust_comment(text: String) -> String {
    text.chars()
        .map(|c| match c {
            '\n' => " ".to_owned(),
            c if (c.is_control() && c != '\t') || pas_emit::is_bidi(c) => {
                c.escape_default().to_string()
            }
            c => c.to_string(),
        })
        .collect()
}

/// A TOML basic string holding exactly `text`.
pub fn toml(text: String) -> String {
    toml_edit::Value::from(text).to_string().trim().to_owned()
}

/// Markdown text shown as written: every character Markdown would read as syntax is escaped,
/// and line breaks become spaces (a heading or table cell is one line). Punctuation that is
/// syntax only at the start of a line (`#`, `-`, `+`, `=`, `1.`) is escaped only there, so a
/// sentence keeps its final period as written (`file.`, not `file\.`).
pub fn md(text: String) -> String {
    let mut out = String::with_capacity(text.len());
    // The digits a line starts with, while they last: `1.` or `1)` there opens a list.
    let mut leading_digits = true;
    for (index, c) in text.chars().enumerate() {
        let at_start = index == 0;
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '#' | '-' | '+' | '=' if at_start => {
                out.push('\\');
                out.push(c);
            }
            '.' | ')' if leading_digits && !at_start => {
                out.push('\\');
                out.push(c);
            }
            '\r' | '\n' => out.push(' '),
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
        leading_digits = leading_digits && c.is_ascii_digit();
    }
    out
}

/// Text inside a one-backtick code span: backticks and line breaks cannot be in one.
pub fn md_code(text: String) -> String {
    text.chars()
        .map(|c| match c {
            '`' => '\'',
            '\r' | '\n' | '\0' => ' ',
            c => c,
        })
        .collect()
}

/// A fenced code block holding `text` exactly: the fence is longer than any run of backticks
/// inside.
pub fn fence(text: String) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}text\n{}\n{fence}", text.trim_end_matches('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(rust_str("a\"b\\c\n\0".into()), r#""a\"b\\c\n\0""#);
        for text in ["a\"b\\c\n", "'\0 \u{202e} {{ }}", "plain"] {
            let doc: toml_edit::DocumentMut = format!("k = {}", toml(text.into())).parse().unwrap();
            assert_eq!(doc["k"].as_str(), Some(text));
        }
        assert_eq!(md("*x* [y](z)".into()), r"\*x\* \[y\](z)");
        assert_eq!(md("Keep a file.".into()), "Keep a file.");
        assert_eq!(
            md("# not a heading - or a list".into()),
            r"\# not a heading - or a list"
        );
        assert_eq!(md("12. not a list item".into()), r"12\. not a list item");
        assert_eq!(md("v1.2 ships".into()), "v1.2 ships");
        assert_eq!(fence("a ``` b".into()), "````text\na ``` b\n````");
        assert_eq!(
            rust_doc("a\nb */".into(), "  ".into()),
            "  /// a\n  /// b */"
        );
    }
}
