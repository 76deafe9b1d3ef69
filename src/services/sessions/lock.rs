//! One writer per session: an advisory lock (flock) on `<session>/lock`, held until the call's
//! process ends (the kernel releases it even after SIGKILL), with the holder written inside so
//! that a second writer can name it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

/// The lock, while this process holds it.
pub(crate) struct Held {
    _file: File,
}

/// Who holds a lock.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Holder {
    pub(crate) pid: u32,
    pub(crate) command: String,
    pub(crate) since: String,
}

/// Takes the lock of the session in `dir` without waiting, or says who holds it.
pub(crate) fn acquire(dir: &Path, command: &str) -> Result<Held, Holder> {
    let unknown = || Holder {
        pid: 0,
        command: "another call".to_owned(),
        since: "an unknown time".to_owned(),
    };
    let path = dir.join("lock");
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    // The lock file is data: a FIFO there never blocks the call, a link there is not followed.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOFOLLOW,
    );
    let Ok(mut file) = options.open(&path) else {
        return Err(unknown());
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(unknown());
    }
    match file.try_lock() {
        Ok(()) => {
            let holder = Holder {
                pid: std::process::id(),
                command: command.to_owned(),
                since: crate::time::rfc3339_millis(SystemTime::now()),
            };
            // The holder's name is informative only: failing to write it keeps the lock.
            let _ = file.set_len(0).and_then(|()| file.seek(SeekFrom::Start(0)));
            if let Ok(text) = serde_json::to_vec(&holder) {
                let _ = file.write_all(&text).and_then(|()| file.flush());
            }
            Ok(Held { _file: file })
        }
        Err(_) => {
            // A holder is a short line: a lock file grown past 4 KiB names nobody.
            let mut text = String::new();
            let _ = Read::by_ref(&mut file).take(4096).read_to_string(&mut text);
            Err(serde_json::from_str(&text).unwrap_or_else(|_| unknown()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_and_told_the_holder() {
        let dir = std::env::temp_dir().join(format!("pas-lock-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let held = acquire(&dir, "apply").expect("the first writer gets the lock");
        let holder = acquire(&dir, "apply").err().expect("the second is refused");
        assert_eq!(holder.pid, std::process::id());
        assert_eq!(holder.command, "apply");
        drop(held);
        assert!(acquire(&dir, "verify").is_ok(), "released with its holder");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
