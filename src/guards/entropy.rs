//! High-entropy tokens out of what an agent reads (CLI Agent Spec 59), where the tool asks for
//! it: a tool that declares `maskHighEntropy: true` (spec) or `#[agent(mask_high_entropy)]`
//! (derive) has each JWT, API key or long base64 blob in its output (objects, documents, stream
//! items, in every mode) and errors replaced by a short summary of what it is:
//! `[JWT sub=user_123 exp=2024-03-11T15:00:00Z; raw with --unmask]`, `[API key ghp_abcd...; raw
//! with --unmask]`, `[high-entropy string, 88 chars: Zm9vYmFy...; raw with --unmask]`. A tool
//! that declares nothing masks nothing: a key, a signature or a data: URI is data.
//!
//! The treatment is a function of the value alone (the same value is always masked, or always
//! left), and a value the caller gave in the call's arguments is never masked. `--unmask` (or
//! `PAS_UNMASK=1`) shows every value raw, these and the output schema's `x-sensitive` ones
//! (`crate::guards::sensitive`).
//!
//! What is never masked, since an agent needs it verbatim for its next call: ids and hashes
//! (hex, UUIDs: one case of letters), words, paths and anything shorter than 40 characters
//! unless it is a JWT or starts with a known credential prefix.
//!
//! The scan is one pass over the bytes looking for a run of 20 token characters; output
//! without one (almost all output) is left as it is, unparsed.

use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::parse::names::UNMASK_ENV;
use serde_json::Value;

/// What every mask ends with: how to get the raw value.
pub(crate) const RAW_HINT: &str = "raw with --unmask";

/// `--unmask` was given.
static UNMASK: AtomicBool = AtomicBool::new(false);

/// Records the caller's `--unmask`.
pub(crate) fn set_unmask(on: bool) {
    UNMASK.store(on, Ordering::Relaxed);
}

/// Whether this call masks what its tool declares masked (no `--unmask`, and `PAS_UNMASK`
/// unset, empty or `0`).
pub(crate) fn masking() -> bool {
    !UNMASK.load(Ordering::Relaxed)
        && !crate::parse::argv::env_enables(std::env::var_os(UNMASK_ENV).as_deref())
}

/// Credential prefixes whose tokens are masked from 16 characters after the prefix.
const PREFIXES: &[&str] = &[
    "sk-",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "pk_live_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xapp-",
    "AKIA",
    "ASIA",
    "AIza",
    "npm_",
    "hf_",
];

fn is_token_byte(b: u8) -> bool {
    TOKEN_BYTES[b as usize]
}

/// Which bytes a token is made of (ASCII letters and digits, `+/=_-.`), one load per byte: the
/// pre-check reads a byte or more of every item of a stream.
static TOKEN_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] =
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'_' | b'-' | b'.');
        b += 1;
    }
    table
};

/// Whether `bytes` hold a run of at least 20 token characters: the cheap test before any
/// parsing (a JWT or a prefixed key is at least that long).
pub(crate) fn may_hold_token(bytes: &[u8]) -> bool {
    const RUN: usize = 20;
    // A run of RUN starting at or after `start` covers `start + RUN - 1`: when that byte is
    // not a token byte, no such run starts before it, so the search jumps past it. JSON's
    // quotes, colons and commas make most items cost a few reads.
    let mut start = 0;
    while let Some(window) = bytes.get(start..start + RUN) {
        // Walk back from the window's last byte to its last non-token byte (a slice walk:
        // no bounds check per byte).
        match window.iter().rposition(|&b| !is_token_byte(b)) {
            None => return true,
            Some(gap) => start += gap + 1,
        }
    }
    false
}

/// `text` with every high-entropy token replaced by its summary, or `None` when it has none. A
/// token that occurs in one of the caller's `arguments` is left as it is.
pub(crate) fn mask_text(text: &str, arguments: &[String]) -> Option<String> {
    if !may_hold_token(text.as_bytes()) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii() && is_token_byte(c as u8)) {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii() && is_token_byte(c as u8)))
            .unwrap_or(rest.len());
        let run = &rest[..end];
        let given = || arguments.iter().any(|a| a.contains(run));
        match summary(run).filter(|_| !given()) {
            Some(masked) => {
                out.push_str(&masked);
                changed = true;
            }
            None => out.push_str(run),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// Masks every string in `value` (but the caller's `arguments`); whether any changed.
pub(crate) fn mask_json(value: &mut Value, arguments: &[String]) -> bool {
    match value {
        Value::String(text) => match mask_text(text, arguments) {
            Some(masked) => {
                *text = masked;
                true
            }
            None => false,
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |any, v| mask_json(v, arguments) | any),
        Value::Object(map) => map
            .values_mut()
            .fold(false, |any, v| mask_json(v, arguments) | any),
        _ => false,
    }
}

/// The summary of one run of token characters, when it is a token to mask. A run may end in
/// sentence punctuation (`... key sk-abc.`): the trailing dots stay outside.
fn summary(run: &str) -> Option<String> {
    let trimmed = run.trim_end_matches('.');
    let tail = &run[trimmed.len()..];
    let masked = if let Some(jwt) = jwt(trimmed) {
        jwt
    } else if let Some(prefix) = PREFIXES.iter().find(|p| is_prefixed_key(trimmed, p)) {
        let shown: String = trimmed.chars().take(prefix.len() + 4).collect();
        format!("[API key {shown}...; {RAW_HINT}]")
    } else {
        // A run joined by dots (`a.b.c`) is judged piece by piece.
        let mut pieces = Vec::new();
        let mut any = false;
        for piece in trimmed.split('.') {
            if is_high_entropy(piece) {
                let shown: String = piece.chars().take(8).collect();
                pieces.push(format!(
                    "[high-entropy string, {} chars: {shown}...; {RAW_HINT}]",
                    piece.len()
                ));
                any = true;
            } else {
                pieces.push(piece.to_owned());
            }
        }
        if !any {
            return None;
        }
        pieces.join(".")
    };
    Some(format!("{masked}{tail}"))
}

fn is_prefixed_key(run: &str, prefix: &str) -> bool {
    let Some(rest) = run.strip_prefix(prefix) else {
        return false;
    };
    rest.len() >= 16
        && rest.bytes().any(|b| b.is_ascii_digit())
        && rest
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A long base64-looking run: 40 characters or more of the base64 alphabets, upper and lower
/// case letters and digits all present, at least 4.5 bits of Shannon entropy per character,
/// and not a path (no short segments between slashes).
fn is_high_entropy(run: &str) -> bool {
    let bytes = run.as_bytes();
    if bytes.len() < 40 {
        return false;
    }
    let has = |f: fn(&u8) -> bool| bytes.iter().any(f);
    if !(has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase) && has(u8::is_ascii_digit)) {
        return false;
    }
    if run.matches('/').count() >= 2 && run.split('/').any(|s| s.len() < 8) {
        return false;
    }
    shannon(bytes) >= 4.5
}

/// Bits of entropy per byte of `bytes`, from their frequencies.
fn shannon(bytes: &[u8]) -> f64 {
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[b as usize] += 1;
    }
    let len = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / len;
            -p * log2(p)
        })
        .sum()
}

/// The base-2 logarithm of a positive, finite `x`, to within a few units in the last place of
/// `f64::log2`, computed here: `f64::log2` is libm's, and that one function made every tool load
/// libm.so at start (a share of start-up that the dynamic loader pays on every call). Powers of
/// two come out exact, as libm's do. `x` is split into `m * 2^e` with `m` in [1, 2), and
/// `log2(m) = 2 * atanh(z) / ln 2` with `z = (m - 1) / (m + 1)` in [0, 1/3], whose series
/// `z + z^3/3 + z^5/5 + ...` has converged past f64's precision after 20 terms.
fn log2(x: f64) -> f64 {
    let bits = x.to_bits();
    let mut exponent = ((bits >> 52) & 0x7ff) as i64;
    let mut mantissa_bits = bits & ((1u64 << 52) - 1);
    if exponent == 0 {
        // Subnormal: scale into the normal range first.
        let scaled = (x * (1u64 << 54) as f64).to_bits();
        exponent = ((scaled >> 52) & 0x7ff) as i64 - 54;
        mantissa_bits = scaled & ((1u64 << 52) - 1);
    }
    let m = f64::from_bits((1023u64 << 52) | mantissa_bits);
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut series = 0.0;
    for k in 0..20 {
        series += term / f64::from(2 * k + 1);
        term *= z2;
    }
    (exponent - 1023) as f64 + 2.0 * series * std::f64::consts::LOG2_E
}

/// `[JWT sub=... exp=...]` for a JSON Web Token (three base64url parts, a JSON header).
fn jwt(run: &str) -> Option<String> {
    let parts: Vec<&str> = run.split('.').collect();
    if parts.len() != 3 || !parts[0].starts_with("eyJ") || run.len() < 30 {
        return None;
    }
    let b64url = |p: &str| {
        p.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'=')
    };
    if !parts.iter().all(|p| b64url(p)) {
        return None;
    }
    let mut words = vec!["[JWT".to_owned()];
    if let Some(Value::Object(claims)) =
        base64url(parts[1]).and_then(|b| serde_json::from_slice::<Value>(&b).ok())
    {
        if let Some(sub) = claims.get("sub").and_then(Value::as_str) {
            let sub: String = sub.chars().take(40).collect();
            words.push(format!("sub={sub}"));
        }
        if let Some(exp) = claims.get("exp").and_then(Value::as_u64) {
            let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(exp);
            words.push(format!("exp={}", crate::time::rfc3339(at)));
        }
    }
    Some(format!("{}; {RAW_HINT}]", words.join(" ")))
}

/// Decodes unpadded (or padded) base64url.
fn base64url(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for b in text.bytes().filter(|&b| b != b'=') {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const JWT: &str = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzEyMyIsImlhdCI6MTcxMDAwMDAwMCwiZXhwIjoxNzEwMDAzNjAwfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

    #[test]
    fn log2_agrees_with_libm() {
        let mut x = 1e-300_f64;
        while x < 1e300 {
            for v in [x, x * 1.37, x * 1.999_999] {
                let (ours, libm) = (super::log2(v), v.log2());
                assert!(
                    (ours - libm).abs() <= 4.0 * f64::EPSILON * libm.abs().max(1.0),
                    "{v}"
                );
            }
            x *= 3.3;
        }
        for e in -1000..1000 {
            assert_eq!(super::log2(2f64.powi(e)), f64::from(e));
        }
        for len in 1..200u32 {
            for c in 1..=len {
                let p = f64::from(c) / f64::from(len);
                assert!(
                    (super::log2(p) - p.log2()).abs() <= 4.0 * f64::EPSILON,
                    "{c}/{len}"
                );
            }
        }
    }

    #[test]
    fn the_quick_test_finds_runs_of_twenty_and_no_shorter() {
        assert!(may_hold_token(b"ab:cdefghijklmnopqrstuvw"));
        assert!(!may_hold_token(b"ab:cdefghijklmnopqrstu,x"));
        assert!(may_hold_token(&[b'a'; 20]));
        assert!(!may_hold_token(&[b'a'; 19]));
        assert!(!may_hold_token(
            br#"{"id":0,"name":"item-0","tags":["a","b"]}"#
        ));
    }

    #[test]
    fn a_jwt_becomes_its_subject_and_expiry() {
        let text = format!("Authorization: Bearer {JWT}");
        assert_eq!(
            mask_text(&text, &[]).as_deref(),
            Some(
                "Authorization: Bearer [JWT sub=user_123 exp=2024-03-09T17:00:00Z; raw with --unmask]"
            )
        );
    }

    /// A value the caller gave in its own arguments comes back as given; the same value
    /// always gets the same treatment otherwise.
    #[test]
    fn a_token_the_caller_gave_is_left_as_it_is() {
        let text = format!("token {JWT}");
        assert_eq!(
            mask_text(&text, &[format!("--token={JWT}"), JWT.to_owned()]),
            None
        );
        let masked = mask_text(&text, &["other".to_owned()]).unwrap();
        assert_eq!(mask_text(&text, &[]).unwrap(), masked);
        assert!(masked.ends_with("raw with --unmask]"), "{masked}");
    }

    #[test]
    fn known_credential_prefixes_keep_their_first_characters() {
        assert_eq!(
            mask_text("token ghp_16C7e42F292c6912E7710c838347Ae178B4a.", &[]).as_deref(),
            Some("token [API key ghp_16C7...; raw with --unmask].")
        );
        assert_eq!(
            mask_text("AKIAIOSFODNN7EXAMPLE1234", &[]).as_deref(),
            Some("[API key AKIAIOSF...; raw with --unmask]")
        );
    }

    #[test]
    fn a_long_base64_blob_is_summarised() {
        let blob = "Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGRw==";
        let masked = mask_text(&format!("blob {blob} end"), &[]).unwrap();
        assert_eq!(
            masked,
            format!(
                "blob [high-entropy string, {} chars: Zm9vYmFy...; raw with --unmask] end",
                blob.len()
            )
        );
    }

    #[test]
    fn ids_hashes_paths_and_prose_are_left_alone() {
        for text in [
            "da39a3ee5e6b4b0d3255bfef95601890afd80709",
            "0f8fad5b-d9cb-469f-a165-70867728950e",
            "/home/user/Projects/SomeThing2/src/main_window_controller.rs",
            "usr-a1b2c3 created at 2026-11-25T01:44:39Z",
            "The quick brown fox jumps over the lazy dog, twice.",
            "sk-learn-is-a-python-library-name",
            "C0mpletelyOrdinaryCamelCaseIdentifierName",
        ] {
            assert_eq!(mask_text(text, &[]), None, "{text}");
        }
    }

    /// The redactor masks tokens in successful output (JSON items and text) and in errors,
    /// and leaves output without one byte for byte as it was.
    #[test]
    fn the_redactor_masks_output_and_errors_when_masking() {
        let mut redactor = crate::guards::redact::Redactor::default();
        redactor.set_masking(true);
        assert!(redactor.has_values());
        let item = format!(r#"{{"id":"usr-1","token":"{JWT}"}}"#);
        let masked = redactor.output(item.as_bytes(), true).unwrap();
        assert_eq!(
            String::from_utf8(masked).unwrap(),
            r#"{"id":"usr-1","token":"[JWT sub=user_123 exp=2024-03-09T17:00:00Z; raw with --unmask]"}"#
        );
        assert_eq!(redactor.output(br#"{"id":"usr-1","n":2}"#, true), None);
        assert_eq!(
            redactor.output(b"key AKIAIOSFODNN7EXAMPLE1234\n", false),
            Some(b"key [API key AKIAIOSF...; raw with --unmask]\n".to_vec())
        );
        let mut error = crate::error::Error::new("GENERAL_ERROR", format!("the server said {JWT}"));
        redactor.error(&mut error);
        assert_eq!(
            error.message(),
            "the server said [JWT sub=user_123 exp=2024-03-09T17:00:00Z; raw with --unmask]"
        );
        let mut off = crate::guards::redact::Redactor::default();
        off.set_masking(false);
        assert_eq!(off.output(item.as_bytes(), true), None);
    }

    #[test]
    fn json_strings_are_masked_in_place() {
        let mut value = serde_json::json!({"token": JWT, "expires_at": "2024-03-11T15:00:00Z", "n": [1, "AKIAIOSFODNN7EXAMPLE1234"]});
        assert!(mask_json(&mut value, &[]));
        assert_eq!(
            value["token"],
            "[JWT sub=user_123 exp=2024-03-09T17:00:00Z; raw with --unmask]"
        );
        assert_eq!(value["expires_at"], "2024-03-11T15:00:00Z");
        assert_eq!(value["n"][1], "[API key AKIAIOSF...; raw with --unmask]");
    }
}
