//! `ipv4` (RFC 2673 3.2 dotted-quad, as RFC 3986 3.2.2 writes it) and `ipv6` (RFC
//! 4291 2.2 text forms, as RFC 3986 3.2.2 writes them).

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`, where
/// `dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35`:
/// 0 to 255 with no leading zero.
pub(super) fn is_ipv4_bytes(b: &[u8]) -> bool {
    let mut i = 0;
    for part in 0..4 {
        if part > 0 {
            if b.get(i) != Some(&b'.') {
                return false;
            }
            i += 1;
        }
        let start = i;
        let mut value = 0u32;
        while let Some(&c) = b.get(i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 || i - start == 3 {
                break;
            }
            value = value * 10 + u32::from(d);
            i += 1;
        }
        let n = i - start;
        if n == 0 || value > 255 || (n > 1 && b[start] == b'0') {
            return false;
        }
    }
    i == b.len()
}

pub(super) fn is_ipv4(s: &str) -> bool {
    is_ipv4_bytes(s.as_bytes())
}

/// RFC 3986 3.2.2's `IPv6address`: eight `h16` groups of 1 to 4 hex digits, the
/// last two of which may be an `IPv4address`, with at most one `::` standing for
/// one or more groups of zeros. Zone identifiers (RFC 6874) and prefixes are not
/// part of an address.
pub(super) fn is_ipv6_bytes(b: &[u8]) -> bool {
    let mut groups = 0; // groups written, an IPv4 tail counting two
    let mut elided = false;
    let mut i = 0;
    if b.starts_with(b"::") {
        elided = true;
        i = 2;
        if i == b.len() {
            return true;
        }
    } else if b.first() == Some(&b':') {
        return false;
    }
    loop {
        let hex = b[i..].iter().take_while(|d| d.is_ascii_hexdigit()).count();
        // An IPv4 tail: a run of digits followed by a dot, in the last two groups.
        if b.get(i + hex) == Some(&b'.') {
            // Six groups before it, or at most five and the `::`.
            let fits = if elided { groups <= 5 } else { groups == 6 };
            return fits && is_ipv4_bytes(&b[i..]);
        }
        if hex == 0 || hex > 4 {
            return false;
        }
        groups += 1;
        i += hex;
        if i == b.len() {
            break;
        }
        if b[i] != b':' {
            return false;
        }
        i += 1;
        if b.get(i) == Some(&b':') {
            if elided {
                return false;
            }
            elided = true;
            i += 1;
            if i == b.len() {
                break;
            }
        } else if i == b.len() {
            return false; // a lone trailing colon
        }
        if groups >= 8 {
            return false;
        }
    }
    if elided {
        groups < 8
    } else {
        groups == 8
    }
}

pub(super) fn is_ipv6(s: &str) -> bool {
    is_ipv6_bytes(s.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_octets() {
        assert!(is_ipv4("0.0.0.0"));
        assert!(is_ipv4("255.255.255.255"));
        assert!(is_ipv4("249.250.199.100"));
        assert!(!is_ipv4("256.0.0.0"));
        assert!(!is_ipv4("01.0.0.0"), "leading zero");
        assert!(!is_ipv4("00.0.0.0"));
        assert!(!is_ipv4("1.2.3"));
        assert!(!is_ipv4("1.2.3.4.5"));
        assert!(!is_ipv4("1.2.3.4."));
        assert!(!is_ipv4("1.2..4"));
        assert!(!is_ipv4("1234.2.3.4"));
        assert!(!is_ipv4(""));
    }

    #[test]
    fn ipv6_forms() {
        for ok in [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "1::8",
            "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8",
            "FFFF::ffff",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:1.2.3.4",
            "1::1.2.3.4",
            "::1.2.3.4",
            "1:2:3:4:5::1.2.3.4",
        ] {
            assert!(is_ipv6(ok), "{ok}");
        }
        for bad in [
            "",
            ":",
            ":::",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7",
            "1::2::3",
            ":1::",
            "1::2:",
            "12345::",
            "g::",
            "1:2:3:4:5:6:7:1.2.3.4",
            "1:2:3:4:5:6::1.2.3.4",
            "::1.2.3",
            "::01.2.3.4",
            "1.2.3.4",
            "fe80::1%eth0",
            "::1/128",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
        ] {
            assert!(!is_ipv6(bad), "{bad}");
        }
    }
}
