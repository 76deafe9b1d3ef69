//! `include_spec!("path/to/spec.yaml")`: load and validate a spec at compile time, then expand
//! through the one emitter (`pas-emit`), so the code is what `pas-gen generate` writes.
//!
//! Every error of the spec becomes a compile error at the macro's string literal, worded as
//! `pas-gen check` words it: `file:line:col: error[CODE]: message` and the hint. The expansion
//! includes the spec's bytes, so cargo rebuilds the crate when the spec changes.

use std::path::{Path, PathBuf};

use pas_spec::{Diagnostic, SourceMap, check_source, load};
use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

pub(crate) fn include_spec(input: TokenStream) -> TokenStream {
    let lit: LitStr = match syn::parse2(input) {
        Ok(lit) => lit,
        Err(err) => return err.into_compile_error(),
    };
    let given = lit.value();
    let path = resolve(&given);
    let Some(absolute) = path.to_str() else {
        return error(&lit, "the spec's path is not UTF-8".to_owned());
    };
    // Messages name the spec as the user wrote it, like rustc names source files.
    let shown = given.as_str();
    // Tracks the file even when loading fails, so fixing the spec triggers a rebuild.
    let track = quote!(
        const _: &[u8] = ::core::include_bytes!(#absolute);
    );
    let source = match load::read_path(&path) {
        Ok(source) => source,
        Err(diagnostic) => {
            let error = error(&lit, render(&diagnostic, shown));
            return quote!(#track #error);
        }
    };
    let (registry, diagnostics) = check_source(&source);
    let errors: Vec<TokenStream> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| error(&lit, render(d, shown)))
        .collect();
    let Some(registry) = registry.filter(|_| errors.is_empty()) else {
        return quote!(#track #(#errors)*);
    };
    match pas_emit::emit(&registry) {
        Ok(items) => quote!(#track #items),
        Err(err) => {
            let (line, column) = SourceMap::build(&source).nearest(&err.pointer);
            let error = error(
                &lit,
                format!(
                    "{shown}:{line}:{column}: error[{}]: {}\n  hint: {}",
                    err.code, err.message, err.hint
                ),
            );
            quote!(#track #error)
        }
    }
}

/// The spec's path: relative paths are from the crate's `Cargo.toml`, as `include_str!` cannot
/// be (it is relative to the calling file, which a proc macro cannot know on stable).
fn resolve(path: &str) -> PathBuf {
    let path = Path::new(path);
    if path.is_absolute() {
        return path.to_path_buf();
    }
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(PathBuf::new, PathBuf::from);
    dir.join(path)
}

fn render(diagnostic: &Diagnostic, file: &str) -> String {
    let place = match &diagnostic.location {
        Some(at) => format!("{file}:{}:{}", at.line, at.column),
        None => file.to_owned(),
    };
    let mut text = format!(
        "{place}: error[{}]: {}",
        diagnostic.code, diagnostic.message
    );
    if let Some(hint) = &diagnostic.hint {
        text.push_str("\n  hint: ");
        text.push_str(hint);
    }
    text
}

fn error(lit: &LitStr, message: String) -> TokenStream {
    syn::Error::new(lit.span(), message).into_compile_error()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(spec: &str, name: &str) -> String {
        let path =
            std::env::temp_dir().join(format!("pas-include-spec-{}-{name}", std::process::id()));
        std::fs::write(&path, spec).unwrap();
        let literal = proc_macro2::Literal::string(path.to_str().unwrap());
        let out = include_spec(quote!(#literal)).to_string();
        std::fs::remove_file(&path).unwrap();
        out
    }

    #[test]
    fn spec_errors_are_compile_errors_at_file_line_col() {
        let out = expand(
            "specVersion: 1\nname: x\nversion: 1.0.0\nsummary: X.\ncommands:\n  - name: Bad_Name\n    description: D.\n",
            "bad.yaml",
        );
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains(":6:"), "the error names line 6: {out}");
        assert!(out.contains("error[E"), "{out}");
        assert!(out.contains("include_bytes"), "{out}");
    }

    #[test]
    fn a_valid_spec_expands_to_the_emitters_code() {
        let out = expand(
            "specVersion: 1\nname: x\nversion: 1.0.0\nsummary: X.\ncommands:\n  - name: go\n    description: Go.\n",
            "good.yaml",
        );
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("trait Handlers"), "{out}");
    }

    #[test]
    fn a_spec_the_derive_cannot_express_is_a_compile_error_at_its_line() {
        let out = expand(
            "specVersion: 1\nname: x\nversion: 1.0.0\nsummary: X.\nglobalFlags:\n  - name: profile\n    description: P.\ncommands:\n  - name: go\n    description: Go.\n    path: []\n",
            "single.yaml",
        );
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("error[UNSUPPORTED_SPEC]"), "{out}");
        assert!(
            out.contains("single.yaml:5:"),
            "the error names line 5: {out}"
        );
        assert!(!out.contains("trait Handlers"), "{out}");
    }

    #[test]
    fn the_declared_fixture_expands_with_its_declared_keys() {
        let fixture = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/valid/declared.yaml"
        );
        let out = expand(&std::fs::read_to_string(fixture).unwrap(), "declared.yaml");
        assert!(!out.contains("compile_error"), "{out}");
        assert_eq!(out.matches("declared =").count(), 4, "{out}");
    }
}
