//! Timestamps as `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339, UTC), for the audit log and for tools that
//! report a resource's `modified` time (PAS 5.2). A date crate would be one more dependency
//! for a dozen lines of arithmetic.

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` in UTC to the second; times before 1970 are the epoch.
pub fn rfc3339(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    from_secs(secs)
}

/// Now, as [`rfc3339`] writes it.
pub(crate) fn now() -> String {
    rfc3339(SystemTime::now())
}

/// `time` in UTC with milliseconds, `YYYY-MM-DDTHH:MM:SS.mmmZ` (the robot envelope's
/// `generated_at` and session times).
pub(crate) fn rfc3339_millis(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let base = from_secs(since.as_secs());
    format!(
        "{}.{:03}Z",
        base.trim_end_matches('Z'),
        since.subsec_millis()
    )
}

/// `YYYYMMDD-HHMMSS` in UTC (session ids).
pub(crate) fn compact_stamp(time: SystemTime) -> String {
    let base = rfc3339(time);
    let digits: String = base.chars().filter(char::is_ascii_digit).collect();
    format!("{}-{}", &digits[..8], &digits[8..14])
}

fn from_secs(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::from_secs as rfc3339;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_770_112_800), "2026-02-03T10:00:00Z");
    }

    #[test]
    fn millis_and_stamps() {
        use std::time::{Duration, UNIX_EPOCH};
        let time = UNIX_EPOCH + Duration::from_millis(1_770_112_800_045);
        assert_eq!(super::rfc3339_millis(time), "2026-02-03T10:00:00.045Z");
        assert_eq!(super::compact_stamp(time), "20260203-100000");
    }
}
