//! `json-pointer` (RFC 6901 3) and `relative-json-pointer` (draft-handrews-relative-
//! json-pointer-01 3 for draft-07; draft-bhutton-relative-json-pointer-00 3, which
//! adds an index manipulation, for draft 2020-12).

/// `json-pointer = *( "/" reference-token )`, where a `~` is always `~0` or `~1`
/// (any other character stands for itself).
pub(super) fn is_json_pointer(s: &str) -> bool {
    let b = s.as_bytes();
    if !(b.is_empty() || b[0] == b'/') {
        return false;
    }
    let mut i = 0;
    while let Some(p) = b[i..].iter().position(|&c| c == b'~') {
        i += p + 1;
        if !matches!(b.get(i), Some(b'0' | b'1')) {
            return false;
        }
    }
    true
}

/// `non-negative-integer = %x30 / %x31-39 *( %x30-39 )`; returns the bytes it took.
fn non_negative_integer(b: &[u8]) -> Option<usize> {
    match b.first() {
        Some(b'0') => Some(1),
        Some(b'1'..=b'9') => Some(b.iter().take_while(|d| d.is_ascii_digit()).count()),
        _ => None,
    }
}

/// ```text
/// relative-json-pointer = non-negative-integer [index-manipulation] <json-pointer>
///                       / non-negative-integer "#"
/// index-manipulation    = ("+" / "-") non-negative-integer
/// ```
///
/// `index-manipulation` only with `indexed` (draft 2020-12's draft), and never before
/// `#`: the `#` form names the key or index the integer climbs to, which no
/// adjustment can change (`0+0#` is no pointer in either draft).
pub(super) fn is_relative_json_pointer(s: &str, indexed: bool) -> bool {
    let b = s.as_bytes();
    let Some(mut i) = non_negative_integer(b) else {
        return false;
    };
    if &s[i..] == "#" {
        return true;
    }
    if indexed && matches!(b.get(i), Some(b'+' | b'-')) {
        match non_negative_integer(&b[i + 1..]) {
            Some(n) => i += 1 + n,
            None => return false,
        }
    }
    is_json_pointer(&s[i..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers() {
        for ok in ["", "/", "//", "/a~0b~1c", "/~01", "/%", "/ \u{e9}"] {
            assert!(is_json_pointer(ok), "{ok:?}");
        }
        for bad in ["a", "#/a", "/~", "/~2", "/a~", "/~~0"] {
            assert!(!is_json_pointer(bad), "{bad:?}");
        }
    }

    #[test]
    fn relative_pointers() {
        for ok in ["0", "0#", "1/a", "10/a/~1", "0/"] {
            assert!(is_relative_json_pointer(ok, false), "{ok:?}");
            assert!(is_relative_json_pointer(ok, true), "{ok:?}");
        }
        for bad in ["", "#", "-1", "+1", "01", "0##", "0#/a", "1a", "0/~"] {
            assert!(!is_relative_json_pointer(bad, false), "{bad:?}");
            assert!(!is_relative_json_pointer(bad, true), "{bad:?}");
        }
    }

    #[test]
    fn index_manipulation_only_in_the_2020_12_draft() {
        for indexed in ["0+1", "0-1/a", "2+10/", "0-0"] {
            assert!(is_relative_json_pointer(indexed, true), "{indexed}");
            assert!(!is_relative_json_pointer(indexed, false), "{indexed}");
        }
        for bad in ["0+", "0-01", "0+-1", "0+1+1"] {
            assert!(!is_relative_json_pointer(bad, true), "{bad}");
        }
    }

    /// The `#` form takes no index adjustment in any draft: the ABNF puts it before a
    /// JSON pointer only.
    #[test]
    fn no_index_manipulation_before_the_hash() {
        for bad in ["0+0#", "0-1#", "2+10#", "1+0#/a"] {
            assert!(!is_relative_json_pointer(bad, true), "{bad}");
            assert!(!is_relative_json_pointer(bad, false), "{bad}");
        }
        for ok in ["0#", "2#", "10#"] {
            assert!(is_relative_json_pointer(ok, true), "{ok}");
            assert!(is_relative_json_pointer(ok, false), "{ok}");
        }
        for bad in ["0##", "0#/a", "01#"] {
            assert!(!is_relative_json_pointer(bad, true), "{bad}");
        }
    }
}
