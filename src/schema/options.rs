//! How a schema is compiled.

/// Options for [`Schema::compile_with`](super::Schema::compile_with), built from
/// [`Options::default`] with the `with_*` methods, so that options added later never
/// break a caller.
///
/// ```
/// use toolgate::{Options, Schema};
/// let opts = Options::default().with_max_depth(16);
/// let schema = Schema::compile_with(br#"{"type":"object"}"#, &opts).unwrap();
/// assert!(schema.is_valid(br#"{"a":{}}"#));
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    max_depth: usize,
}

impl Options {
    /// The largest nesting limit that may be configured (recursion is bounded by it).
    pub const MAX_DEPTH_LIMIT: usize = 1024;
    /// The default nesting limit.
    pub const DEFAULT_MAX_DEPTH: usize = 128;

    /// The deepest nesting accepted, for schemas at compile time and for instances at
    /// validation time. Default 128; 0 means the default, and values above
    /// [`Options::MAX_DEPTH_LIMIT`] are clamped to it.
    pub fn with_max_depth(mut self, max_depth: usize) -> Options {
        self.max_depth = match max_depth {
            0 => Self::DEFAULT_MAX_DEPTH,
            n => n.min(Self::MAX_DEPTH_LIMIT),
        };
        self
    }

    /// The nesting limit these options set.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_depth: Self::DEFAULT_MAX_DEPTH,
        }
    }
}
