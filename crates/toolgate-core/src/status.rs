//! [`Status`]: the kind of a failure as every host numbers it.

/// The kind of a failure, numbered once for every host: the C ABI's `tg_status`
/// (`TG_ERR_SCHEMA`), Python's `toolgate.Status` (`ERR_SCHEMA`), Go's error values.
/// Numbers are explicit and never reused: a new kind gets a new number.
///
/// ```
/// use toolgate_core::Status;
/// assert_eq!(Status::Schema.code(), 5);
/// assert_eq!(Status::Schema.name(), "ERR_SCHEMA");
/// assert_eq!(Status::Schema.description(), "the schema does not compile");
/// ```
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Success.
    Ok = 0,
    /// A required argument was missing (in C: a NULL pointer).
    Null = 1,
    /// Text that must be UTF-8 (a tool name, a call id, a description) was not.
    Utf8 = 2,
    /// An argument's value is outside its domain: an unknown name policy, unknown
    /// flag bits, an unknown profile name.
    Argument = 3,
    /// An index past the end of a list.
    Range = 4,
    /// A schema did not compile, or a provider's rules refuse it.
    Schema = 5,
    /// A tool name does not satisfy the registry's name policy.
    Name = 6,
    /// A tool of that name is already registered and override was not asked for.
    Duplicate = 7,
    /// A tool's parameters schema does not require a JSON object.
    NotObject = 8,
    /// No tool of that name is registered.
    NotFound = 9,
    /// A tool's handler failed.
    Handler = 10,
    /// An internal error: a panic inside toolgate was caught.
    Panic = 11,
    /// A provider's response (an MCP request) is not JSON, not in its dialect's shape,
    /// or holds a malformed tool call: its calls cannot be read.
    Response = 12,
}

impl Status {
    /// Every status, by number.
    pub const ALL: [Status; 13] = [
        Status::Ok,
        Status::Null,
        Status::Utf8,
        Status::Argument,
        Status::Range,
        Status::Schema,
        Status::Name,
        Status::Duplicate,
        Status::NotObject,
        Status::NotFound,
        Status::Handler,
        Status::Panic,
        Status::Response,
    ];

    /// The number every host uses.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The status a number names, if any.
    pub fn from_code(code: i32) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The name hosts spell it with (C adds `TG_`): `OK`, `ERR_NULL`, ...
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "OK",
            Status::Null => "ERR_NULL",
            Status::Utf8 => "ERR_UTF8",
            Status::Argument => "ERR_ARGUMENT",
            Status::Range => "ERR_RANGE",
            Status::Schema => "ERR_SCHEMA",
            Status::Name => "ERR_NAME",
            Status::Duplicate => "ERR_DUPLICATE",
            Status::NotObject => "ERR_NOT_OBJECT",
            Status::NotFound => "ERR_NOT_FOUND",
            Status::Handler => "ERR_HANDLER",
            Status::Panic => "ERR_PANIC",
            Status::Response => "ERR_RESPONSE",
        }
    }

    /// What it means, in a few words (C's `tg_status_str` is `TG_NAME: description`).
    pub fn description(self) -> &'static str {
        match self {
            Status::Ok => "success",
            Status::Null => "a required pointer argument is NULL",
            Status::Utf8 => "text that must be UTF-8 is not",
            Status::Argument => "an argument value is outside its domain",
            Status::Range => "index out of range",
            Status::Schema => "the schema does not compile",
            Status::Name => "the tool name is not allowed by the registry's policy",
            Status::Duplicate => "a tool of that name is already registered",
            Status::NotObject => "the parameters schema does not require an object",
            Status::NotFound => "no tool of that name is registered",
            Status::Handler => "the tool's handler failed",
            Status::Panic => "internal error (a panic was caught)",
            Status::Response => "the tool calls of the provider's response cannot be read",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_the_order_of_all_and_round_trip() {
        for (i, s) in Status::ALL.into_iter().enumerate() {
            assert_eq!(s.code(), i as i32);
            assert_eq!(Status::from_code(s.code()), Some(s));
        }
        assert_eq!(Status::from_code(13), None);
    }
}
