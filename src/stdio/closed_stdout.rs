//! Whether stdout was closed when the process started (`tool >&-`).
//!
//! Before `main` runs, Rust's runtime replaces a closed descriptor 0, 1 or 2 with `/dev/null`
//! (opened read-write), so by the time the tool runs, writes to a closed stdout succeed into
//! nothing and the call would exit 0 having written nothing. That `/dev/null` cannot be told
//! apart afterwards from one a harness passes on purpose (Python's `subprocess.DEVNULL` opens it
//! the same way), so the descriptor is checked earlier: a function in the ELF `.init_array`
//! runs when the program is loaded, before the Rust runtime starts. The runtime then refuses to
//! write to stdout with `EBADF`, and the call ends with a general error on stderr.

use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether fd 1 was closed when the process was loaded.
pub(crate) fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
mod at_load {
    /// Run by the dynamic loader (or the static start-up code) with the other ELF
    /// initialisers, before `main` and before Rust's runtime touches descriptors 0 to 2.
    // SAFETY: `.init_array` holds pointers to `extern "C" fn()` initialisers the loader calls
    // once, with no arguments, before `main`; `check` has exactly that type, reads no Rust state
    // that needs initialising (an atomic store into a static with a constant initialiser) and
    // never unwinds. `#[used]` keeps the entry although nothing names it.
    #[used]
    #[unsafe(link_section = ".init_array")]
    static CHECK_STDOUT: extern "C" fn() = check;

    extern "C" fn check() {
        // SAFETY: fcntl(F_GETFD) only reads the descriptor's flags; it fails with EBADF when
        // descriptor 1 is not open, and has no other effect.
        let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
        super::STDOUT_CLOSED.store(closed, super::Ordering::Relaxed);
    }
}
