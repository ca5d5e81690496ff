//! Tool-name policies, checked by hand: each is a short byte class with a length
//! bound, and a hand-written loop is both faster and clearer than compiling a regex.

use super::text::quote;
use super::NamePolicy;

impl NamePolicy {
    /// True when `name` satisfies this policy.
    pub fn accepts(self, name: &str) -> bool {
        let bytes = name.as_bytes();
        match self {
            NamePolicy::Default => {
                (1..=64).contains(&bytes.len())
                    && bytes
                        .iter()
                        .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            }
            NamePolicy::Dotted => {
                // `split` yields an empty segment for a leading, trailing or doubled dot,
                // which is exactly what the policy refuses.
                (1..=64).contains(&bytes.len())
                    && bytes.split(|&b| b == b'.').all(|segment| {
                        !segment.is_empty()
                            && segment
                                .iter()
                                .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                    })
            }
            NamePolicy::Mcp => {
                (1..=128).contains(&bytes.len())
                    && bytes
                        .iter()
                        .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
            }
        }
    }

    /// The rule a refused name is told, as it ends the refusal message:
    /// `must match ^[A-Za-z0-9_-]{1,64}$` for the default policy.
    pub fn rule(self) -> &'static str {
        match self {
            NamePolicy::Default => "must match ^[A-Za-z0-9_-]{1,64}$",
            NamePolicy::Dotted => {
                "must be lowercase [a-z0-9_] segments separated by dots, at most 64 characters"
            }
            NamePolicy::Mcp => "must match ^[A-Za-z0-9_.-]{1,128}$",
        }
    }

    /// The policy as a regular expression (the length bound of the dotted policy, 64,
    /// is outside it): for a host that checks names before it registers them, e.g. in
    /// a form. The registry itself checks with [`NamePolicy::accepts`].
    ///
    /// ```
    /// use toolgate_core::NamePolicy;
    /// assert_eq!(NamePolicy::Default.pattern(), "^[A-Za-z0-9_-]{1,64}$");
    /// ```
    pub fn pattern(self) -> &'static str {
        match self {
            NamePolicy::Default => "^[A-Za-z0-9_-]{1,64}$",
            NamePolicy::Dotted => r"^[a-z0-9_]+(\.[a-z0-9_]+)*$",
            NamePolicy::Mcp => "^[A-Za-z0-9_.-]{1,128}$",
        }
    }

    /// The longest name this policy accepts, in bytes (every accepted name is ASCII).
    pub fn max_len(self) -> usize {
        match self {
            NamePolicy::Default | NamePolicy::Dotted => 64,
            NamePolicy::Mcp => 128,
        }
    }

    /// `invalid tool name "NAME": <rule>`. The name is JSON-quoted because it was
    /// refused: it may hold quotes, control characters or nothing at all.
    pub(crate) fn refusal(self, name: &str) -> String {
        format!("invalid tool name {}: {}", quote(name), self.rule())
    }
}

/// `name` with each `.` as `_`: the spelling in which a provider that refuses dots in
/// tool names (OpenAI, Anthropic, Gemini) is sent a dotted name (`db.get_user` as
/// `db_get_user`), and so the spelling its calls arrive in. A registry maps a call by
/// it back to the registered tool, unless a tool of that very name exists or two
/// dotted names share the spelling.
pub fn dotted_spelling(name: &str) -> String {
    name.replace('.', "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pattern_agrees_with_the_policy() {
        for policy in [NamePolicy::Default, NamePolicy::Dotted, NamePolicy::Mcp] {
            let re = regex::Regex::new(policy.pattern()).unwrap();
            for name in [
                "get_weather",
                "get-weather",
                "db.get_user",
                "Db.x",
                "a..b",
                ".a",
                "a.",
                "",
                "a b",
                "x",
                "ä",
                &"a".repeat(64),
                &"a".repeat(65),
                &"a.".repeat(40),
            ] {
                let within = name.len() <= policy.max_len();
                assert_eq!(
                    policy.accepts(name),
                    re.is_match(name) && within,
                    "{policy:?} {name:?}"
                );
            }
        }
        assert_eq!(
            NamePolicy::Default.rule(),
            format!("must match {}", NamePolicy::Default.pattern())
        );
        assert_eq!(
            NamePolicy::Mcp.rule(),
            format!("must match {}", NamePolicy::Mcp.pattern())
        );
    }
}
