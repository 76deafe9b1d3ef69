//! A `program` requirement's `version`: the runtime runs `TARGET --version` (stdin closed, at
//! most a few seconds) and compares the first version it prints with the declared semver range,
//! so a tool that needs `git >=2.30` fails with `RUNTIME_VERSION`, the range and the version
//! found, before its handler meets an old program's missing flag.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pas_spec::declare::Requirement;

/// How long a program may take to print its version before it counts as unreadable.
const VERSION_DEADLINE: Duration = Duration::from_secs(5);

/// What comparing a requirement's version found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum VersionCheck {
    /// No range declared, or the version found is in it.
    Fits,
    /// The version found (`None`: the program printed none) is outside the range.
    OutOfRange(Option<String>),
}

/// Compares the installed program's version with the requirement's range.
pub(crate) fn check(requirement: &Requirement) -> VersionCheck {
    let Some(range) = requirement.version.as_deref() else {
        return VersionCheck::Fits;
    };
    // The validator refuses a range that does not parse; a compiled-in one that still does not
    // is compared as unmet rather than silently passed.
    let Ok(range) = semver::VersionReq::parse(range) else {
        return VersionCheck::OutOfRange(None);
    };
    match installed(&requirement.target) {
        Some(found) if range.matches(&found) => VersionCheck::Fits,
        found => VersionCheck::OutOfRange(found.map(|v| v.to_string())),
    }
}

/// The first version `program --version` prints on stdout or stderr.
fn installed(program: &str) -> Option<semver::Version> {
    let mut child = Command::new(super::home::expand_home(program))
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < VERSION_DEADLINE => {
                std::thread::sleep(Duration::from_millis(10));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut text);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut text);
    }
    first_version(&text)
}

/// The first `MAJOR.MINOR[.PATCH]` in a text, missing parts read as 0 (`git version 2.39.2`,
/// `Python 3.12`, `v20.1.0`). Scanned by hand: a tool that declares a versioned requirement but
/// no `pattern` would otherwise link a regex engine for this one fixed shape.
pub(crate) fn first_version(text: &str) -> Option<semver::Version> {
    let bytes = text.as_bytes();
    // Each run of digits, in order: a version starts at the first one followed by `.DIGIT`.
    let mut at = 0;
    while at < bytes.len() {
        if !bytes[at].is_ascii_digit() {
            at += 1;
            continue;
        }
        let (major, after) = digits(text, at);
        if bytes.get(after) == Some(&b'.') && bytes.get(after + 1).is_some_and(u8::is_ascii_digit) {
            let (minor, after) = digits(text, after + 1);
            let patch = match bytes.get(after) == Some(&b'.')
                && bytes.get(after + 1).is_some_and(u8::is_ascii_digit)
            {
                true => digits(text, after + 1).0,
                false => "0",
            };
            let part = |s: &str| s.parse::<u64>().ok();
            return Some(semver::Version::new(
                part(major)?,
                part(minor)?,
                part(patch)?,
            ));
        }
        at = after;
    }
    None
}

/// The run of ASCII digits starting at `start`, and where it ends.
fn digits(text: &str, start: usize) -> (&str, usize) {
    let len = text[start..].bytes().take_while(u8::is_ascii_digit).count();
    (&text[start..start + len], start + len)
}

#[cfg(test)]
mod tests {
    use super::first_version;

    #[test]
    fn the_first_dotted_number_is_the_version_missing_parts_zero() {
        let v = |t: &str| first_version(t).map(|v| v.to_string());
        assert_eq!(v("git version 2.39.2\n").as_deref(), Some("2.39.2"));
        assert_eq!(v("Python 3.12").as_deref(), Some("3.12.0"));
        assert_eq!(v("v20.1.0 (node)").as_deref(), Some("20.1.0"));
        assert_eq!(v("no version here"), None);
        assert_eq!(v("build 7, tool 1.2.3.4").as_deref(), Some("1.2.3"));
        assert_eq!(v("1. then 2.5.").as_deref(), Some("2.5.0"));
        assert_eq!(v("héllo 10.20"), Some("10.20.0".to_owned()));
    }
}
