//! `date-time`, `date`, `time` (RFC 3339 5.6) and `duration` (RFC 3339 appendix A),
//! each a fixed-position byte scanner.

/// Two ASCII digits at `b[i..i + 2]`.
#[inline]
fn two_digits(b: &[u8], i: usize) -> Option<u32> {
    let h = u32::from(b.get(i)?.wrapping_sub(b'0'));
    let l = u32::from(b.get(i + 1)?.wrapping_sub(b'0'));
    (h < 10 && l < 10).then_some(h * 10 + l)
}

fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// `full-date = date-fullyear "-" date-month "-" date-mday`, with the day bounded by
/// its month and year (RFC 3339 5.7).
#[inline]
fn full_date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(century), Some(yy), Some(month), Some(day)) = (
        two_digits(b, 0),
        two_digits(b, 2),
        two_digits(b, 5),
        two_digits(b, 8),
    ) else {
        return false;
    };
    let year = century * 100 + yy;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `full-time = partial-time time-offset`. `T` and `Z` may be lower case (RFC 3339
/// 5.6, note). A second of 60 is a leap second, which only ever falls on the last
/// minute of a UTC day, so `23:59:60Z` and `15:59:60-08:00` are valid and
/// `23:59:60+01:00` is not (the offset is undone first; `-00:00` is UTC).
#[inline]
fn full_time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (two_digits(b, 0), two_digits(b, 3), two_digits(b, 6))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 8;
    // time-secfrac = "." 1*DIGIT
    if b.get(i) == Some(&b'.') {
        let digits = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        i += 1 + digits;
    }
    let offset_minutes: i32 = match b.get(i) {
        Some(b'Z' | b'z') if b.len() == i + 1 => 0,
        Some(&sign @ (b'+' | b'-')) if b.len() == i + 6 && b[i + 3] == b':' => {
            let (Some(oh), Some(om)) = (two_digits(b, i + 1), two_digits(b, i + 4)) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let m = (oh * 60 + om) as i32;
            if sign == b'-' {
                -m
            } else {
                m
            }
        }
        _ => return false,
    };
    if second == 60 {
        let utc = ((hour * 60 + minute) as i32 - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

pub(super) fn is_date(s: &str) -> bool {
    full_date(s.as_bytes())
}

pub(super) fn is_time(s: &str) -> bool {
    full_time(s.as_bytes())
}

pub(super) fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() > 11 && matches!(b[10], b'T' | b't') && full_date(&b[..10]) && full_time(&b[11..])
}

/// RFC 3339 appendix A:
///
/// ```text
/// duration = "P" (dur-date / dur-time / dur-week)
/// dur-date = (dur-day / dur-month / dur-year) [dur-time]
/// dur-time = "T" (dur-hour / dur-minute / dur-second)
/// dur-year = 1*DIGIT "Y" [dur-month]     dur-hour   = 1*DIGIT "H" [dur-minute]
/// dur-month = 1*DIGIT "M" [dur-day]      dur-minute = 1*DIGIT "M" [dur-second]
/// dur-day = 1*DIGIT "D"                  dur-second = 1*DIGIT "S"
/// dur-week = 1*DIGIT "W"
/// ```
///
/// So the date elements are a run of consecutive units of `Y M D`, the time ones of
/// `H M S`, weeks stand alone, and no element has a fraction or a sign. The letters
/// are ABNF strings and so match either case (RFC 5234 2.3).
pub(super) fn is_duration(s: &str) -> bool {
    let b = s.as_bytes();
    if !matches!(b.first(), Some(b'P' | b'p')) {
        return false;
    }
    let mut i = 1;
    let date_end = b
        .iter()
        .position(|c| matches!(c, b'T' | b't'))
        .unwrap_or(b.len());
    let date = &b[i..date_end];
    if date.is_empty() && date_end == b.len() {
        return false; // "P" alone
    }
    if !date.is_empty() {
        match elements(date, b"YMD", Some(b'W')) {
            Some(Elements::Week) => return date_end == b.len(),
            Some(Elements::Units) => {}
            None => return false,
        }
    }
    i = date_end;
    if i == b.len() {
        return true;
    }
    let time = &b[i + 1..];
    !time.is_empty() && elements(time, b"HMS", None) == Some(Elements::Units)
}

#[derive(Debug, PartialEq, Eq)]
enum Elements {
    Units,
    Week,
}

/// A non-empty run of `1*DIGIT unit` elements whose units are consecutive entries
/// of `units`, or (when `week` is given) a single week element.
fn elements(b: &[u8], units: &[u8; 3], week: Option<u8>) -> Option<Elements> {
    let mut i = 0;
    let mut next_unit = 0; // the first entry of `units` the next element may use
    let mut count = 0;
    while i < b.len() {
        let digits = b[i..].iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        i += digits;
        let unit = b.get(i)?.to_ascii_uppercase();
        i += 1;
        if Some(unit) == week {
            return (count == 0 && i == b.len()).then_some(Elements::Week);
        }
        let at = units.iter().position(|&u| u == unit)?;
        if at < next_unit || (count > 0 && at != next_unit) {
            return None;
        }
        next_unit = at + 1;
        count += 1;
    }
    (count > 0).then_some(Elements::Units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_fields_and_calendar() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(is_date("2000-02-29"), "divisible by 400");
        assert!(!is_date("1900-02-29"), "divisible by 100");
        assert!(is_date("2024-04-30"));
        assert!(!is_date("2024-04-31"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("2024-00-01"));
        assert!(!is_date("2024-01-00"));
        assert!(!is_date("2024-1-01"));
        assert!(!is_date("2024/01/01"));
        assert!(!is_date("02024-01-01"));
    }

    #[test]
    fn time_fields_offsets_and_fractions() {
        assert!(is_time("00:00:00Z"));
        assert!(is_time("23:59:59.999999999999+14:00"));
        assert!(is_time("12:00:00z"));
        assert!(!is_time("12:00:00."), "fraction without digits");
        assert!(!is_time("12:00:00"), "offset required");
        assert!(!is_time("12:00:00+0100"));
        assert!(!is_time("12:00:00+01"));
        assert!(!is_time("12:00:00+24:00"));
        assert!(!is_time("12:00:00+00:60"));
        assert!(!is_time("12:00:00ZZ"));
        assert!(!is_time("24:00:00Z"));
        assert!(!is_time("12:60:00Z"));
    }

    #[test]
    fn leap_seconds_on_the_last_utc_minute() {
        assert!(is_time("23:59:60Z"));
        assert!(is_time("23:59:60-00:00"));
        assert!(is_time("00:59:60+01:00"));
        assert!(is_time("18:59:60-05:00"));
        assert!(!is_time("23:59:60+01:00"));
        assert!(!is_time("23:58:60Z"));
        assert!(!is_time("23:59:61Z"));
    }

    #[test]
    fn date_time_joins_date_and_time() {
        assert!(is_date_time("2024-01-15T10:30:00Z"));
        assert!(is_date_time("2024-01-15t10:30:00.5+05:30"));
        assert!(
            !is_date_time("2024-01-15 10:30:00Z"),
            "RFC 3339 5.6 requires T"
        );
        assert!(!is_date_time("2024-01-15T"));
        assert!(!is_date_time("2024-01-15"));
        assert!(!is_date_time("2024-02-30T10:30:00Z"));
    }

    #[test]
    fn duration_grammar() {
        for ok in [
            "P1Y", "P1Y2M", "P1Y2M3D", "P2M3D", "P3D", "P1W", "PT1H", "PT1H2M", "PT1H2M3S",
            "PT2M3S", "PT3S", "P1DT1S", "p1d", "P1Yt1H",
        ] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "P", "PT", "P1YT", "P1Y3D", "PT1H3S", "P1W1D", "P1WT1H", "P1D1Y", "P1M1M", "P1H",
            "PT1D", "P1.5Y", "P-1Y", "P1", "1Y", "P1YY", "P1DT", "PT1S1S",
        ] {
            assert!(!is_duration(bad), "{bad}");
        }
    }
}
