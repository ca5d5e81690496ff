//! `uuid` (RFC 4122 3): the string form `8-4-4-4-12` hex digits, either case, any
//! version and variant.

pub(super) fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    let hex = |r: &[u8]| r.iter().all(u8::is_ascii_hexdigit);
    b.len() == 36
        && b[8] == b'-'
        && b[13] == b'-'
        && b[18] == b'-'
        && b[23] == b'-'
        && hex(&b[..8])
        && hex(&b[9..13])
        && hex(&b[14..18])
        && hex(&b[19..23])
        && hex(&b[24..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_form() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(is_uuid("123E4567-E89B-12D3-A456-426614174000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-42661417400"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-4266141740000"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456_426614174000"));
        assert!(!is_uuid("g23e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("{123e4567-e89b-12d3-a456-426614174000}"));
    }
}
