//! SHA-256 (FIPS 180-4) of a definitions text, as lowercase hex: the key a host puts a
//! prompt cache under, and how it notices that the tool set changed.
//!
//! The digest is the `sha2` crate's; the tests are the standard's own vectors.

use sha2::{Digest, Sha256};

/// The SHA-256 of `bytes` as 64 lowercase hex digits.
pub fn fingerprint(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(64);
    for byte in Sha256::digest(bytes) {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fingerprint;

    // FIPS 180-4's examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf") and the
    // padding boundaries: 55 bytes fit one final block, 56 need two.
    #[test]
    fn standard_vectors() {
        let cases: [(&[u8], &str); 4] = [
            (
                b"",
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            ),
            (
                b"abc",
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            ),
            (
                b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
            ),
        ];
        for (input, hex) in cases {
            assert_eq!(
                fingerprint(input),
                hex,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn million_a() {
        let input = vec![b'a'; 1_000_000];
        assert_eq!(
            fingerprint(&input),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn padding_boundaries() {
        // Cross-checked with `sha256sum`.
        let check = |n: usize, hex: &str| assert_eq!(fingerprint(&vec![b'a'; n]), hex, "{n}");
        check(
            55,
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
        );
        check(
            56,
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
        );
        check(
            64,
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
        );
    }
}
