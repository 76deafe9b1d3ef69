//! Running a command and measuring it: wall time over repeated runs, and peak resident memory.
//!
//! Peak memory comes from `getrusage(RUSAGE_CHILDREN)`, which reports the largest child a process
//! has waited for. To get one child's peak, the bench re-executes itself as a wrapper around each
//! measured run (`pas-bench __rss CMD...`), so each wrapper waits for exactly one child.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What running a command repeatedly cost.
#[derive(Debug, Clone, Copy)]
pub struct Measurement {
    /// Median wall time over the runs.
    pub median: Duration,
    /// Peak resident set size of one run, in KiB.
    pub peak_kib: u64,
    /// The exit code of the runs (they must all agree).
    pub exit: i32,
}

/// Run `argv` `runs` times (after one warm-up), with stdout and stderr discarded.
pub fn measure(argv: &[String], runs: usize) -> Measurement {
    let mut times = Vec::with_capacity(runs);
    let exit = run_once(argv).1;
    for _ in 0..runs {
        let (elapsed, code) = run_once(argv);
        assert_eq!(code, exit, "exit code changed between runs of {argv:?}");
        times.push(elapsed);
    }
    times.sort();
    Measurement {
        median: times[times.len() / 2],
        peak_kib: peak_rss_kib(argv),
        exit,
    }
}

fn run_once(argv: &[String]) -> (Duration, i32) {
    let start = Instant::now();
    let status = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot run {argv:?}: {e}"));
    (start.elapsed(), status.code().unwrap_or(-1))
}

/// Peak RSS of one run of `argv`, measured in a fresh wrapper process.
fn peak_rss_kib(argv: &[String]) -> u64 {
    let me = std::env::current_exe().expect("the bench knows its own path");
    let output = Command::new(me)
        .arg("__rss")
        .args(argv)
        .output()
        .expect("the rss wrapper runs");
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("the rss wrapper prints a number")
}

/// The wrapper's side: run the command once, then print the peak RSS of that one child (KiB).
pub fn rss_wrapper(argv: &[String]) -> ! {
    let _ = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `usage` points to writable memory the size of `rusage`, which getrusage fills;
    // RUSAGE_CHILDREN is a valid `who`. The struct is all integers, so zeroed is a valid value
    // even if the call failed (it cannot with these arguments).
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    // On Linux ru_maxrss is in KiB.
    println!("{}", usage.ru_maxrss);
    std::process::exit(0)
}

/// `12.3 ms` style.
pub fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// `b / a` as `1.23x`.
pub fn ratio(a: Duration, b: Duration) -> String {
    format!("{:.2}x", b.as_secs_f64() / a.as_secs_f64())
}
