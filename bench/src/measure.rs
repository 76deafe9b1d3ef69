//! Running a command and measuring it: wall time over repeated runs, and peak resident memory.
//!
//! Peak memory comes from `getrusage(RUSAGE_CHILDREN)`, which reports the largest child a process
//! has waited for. To get one child's peak, the bench re-executes itself as a wrapper around each
//! measured run (`pas-bench __rss SINK CMD...`), so each wrapper waits for exactly one child.
//!
//! Where stdout goes changes what a program does (the runtime flushes for a live reader, and
//! batches into a file or a device), so every run names its [`Sink`].

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where a measured run's stdout goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sink {
    /// /dev/null: no reader at all.
    Null,
    /// A pipe the bench reads to the end as fast as it can (an agent reading the output).
    Pipe,
}

impl Sink {
    fn name(self) -> &'static str {
        match self {
            Sink::Null => "null",
            Sink::Pipe => "pipe",
        }
    }

    fn parse(name: &str) -> Sink {
        match name {
            "pipe" => Sink::Pipe,
            _ => Sink::Null,
        }
    }
}

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
    compare(&[argv], runs, Sink::Null)[0]
}

/// Measure several commands side by side: after one warm-up each, the runs take turns (a, b,
/// a, b, ...) so that a burst of load on the machine hits them alike, and each gets its median.
pub fn compare(argvs: &[&[String]], runs: usize, sink: Sink) -> Vec<Measurement> {
    let exits: Vec<i32> = argvs.iter().map(|argv| run_once(argv, sink).1).collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(runs); argvs.len()];
    for _ in 0..runs {
        for (i, argv) in argvs.iter().enumerate() {
            let (elapsed, code) = run_once(argv, sink);
            assert_eq!(code, exits[i], "exit code changed between runs of {argv:?}");
            times[i].push(elapsed);
        }
    }
    argvs
        .iter()
        .zip(times)
        .zip(exits)
        .map(|((argv, mut times), exit)| {
            times.sort();
            Measurement {
                median: times[times.len() / 2],
                peak_kib: peak_rss_kib(argv, sink),
                exit,
            }
        })
        .collect()
}

fn spawn(argv: &[String], sink: Sink) -> Child {
    let stdout = match sink {
        Sink::Null => Stdio::null(),
        Sink::Pipe => Stdio::piped(),
    };
    Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {argv:?}: {e}"))
}

/// Runs the child to its end; with a pipe, reads everything it writes (and returns the count).
fn drive(mut child: Child) -> (i32, u64) {
    let mut bytes = 0u64;
    if let Some(mut out) = child.stdout.take() {
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            match out.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => bytes += n as u64,
            }
        }
    }
    let status = child.wait().expect("the child can be waited for");
    (status.code().unwrap_or(-1), bytes)
}

fn run_once(argv: &[String], sink: Sink) -> (Duration, i32) {
    let start = Instant::now();
    let (code, _) = drive(spawn(argv, sink));
    (start.elapsed(), code)
}

/// Peak RSS of one run of `argv`, measured in a fresh wrapper process.
fn peak_rss_kib(argv: &[String], sink: Sink) -> u64 {
    let me = std::env::current_exe().expect("the bench knows its own path");
    let output = Command::new(me)
        .arg("__rss")
        .arg(sink.name())
        .args(argv)
        .output()
        .expect("the rss wrapper runs");
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("the rss wrapper prints a number")
}

/// The wrapper's side (`__rss SINK CMD...`): run the command once, then print the peak RSS of
/// that one child (KiB).
pub fn rss_wrapper(args: &[String]) -> ! {
    let (sink, argv) = args.split_first().expect("__rss SINK CMD...");
    drive(spawn(argv, Sink::parse(sink)));
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
