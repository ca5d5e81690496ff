//! How a schema is compiled: the profile, the draft, the nesting limit, resources that
//! references may point to, and format names taken as annotations.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::json::{write_json_string, OwnedDoc};

use super::CompileError;

/// Which keywords a schema may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The small, exact subset tool schemas need: `type`, `enum`, `const`,
    /// `properties`, `required`, `additionalProperties`, `items`, `minItems`,
    /// `maxItems`, `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`, `anyOf`
    /// and the annotations. Any other keyword is refused. The default everywhere.
    #[default]
    Core,
    /// JSON Schema draft 2020-12 (or draft-07, when `$schema` names it), every
    /// vocabulary: references, every applicator, `unevaluated*`, every validation
    /// keyword, and `format` asserted. Keywords no vocabulary defines are still refused.
    Full,
}

impl Profile {
    /// Every profile, in the order their names are listed in messages.
    pub const ALL: [Profile; 2] = [Profile::Core, Profile::Full];

    /// The profile's name, as every host spells it: `core`, `full`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Core => "core",
            Profile::Full => "full",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = UnknownName;
    /// `core` or `full`.
    ///
    /// ```
    /// use toolgate_core::Profile;
    /// assert_eq!("full".parse::<Profile>(), Ok(Profile::Full));
    /// assert_eq!("strict".parse::<Profile>().unwrap_err().message, r#"unknown profile "strict" (known: core, full)"#);
    /// ```
    fn from_str(s: &str) -> Result<Profile, UnknownName> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownName::new("profile", s, &Profile::ALL.map(Profile::name)))
    }
}

/// A name that names nothing of its kind: `unknown profile "x" (known: core, full)`.
/// Every parser of a profile, draft, dialect or target name gives this text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// The full message.
    pub message: String,
}

impl UnknownName {
    /// `unknown WHAT "NAME" (known: A, B)`, the name written as a JSON string.
    pub fn new(what: &str, name: &str, known: &[&str]) -> UnknownName {
        let mut quoted = String::with_capacity(name.len() + 2);
        write_json_string(&mut quoted, name);
        UnknownName {
            message: format!("unknown {what} {quoted} (known: {})", known.join(", ")),
        }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for UnknownName {}

/// The language a schema is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SchemaDialect {
    /// JSON Schema (the profile and draft decide which keywords).
    #[default]
    JsonSchema,
    /// OpenAPI 3.0 schema objects (Gemini's `parameters`, tools generated from
    /// OpenAPI documents): `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`,
    /// `example`, `discriminator` and `x-` extensions as annotations, and the OpenAPI
    /// formats (`int32`/`int64` ranges, `float`/`double`, `byte` as base64; `binary`
    /// and `password` annotations). Compiled with the full profile's keywords.
    OpenApi3_0,
}

/// A JSON Schema draft, for the full profile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Draft {
    /// Draft-07 (`http://json-schema.org/draft-07/schema#`).
    Draft7,
    /// Draft 2020-12 (`https://json-schema.org/draft/2020-12/schema`).
    #[default]
    Draft2020_12,
}

impl Draft {
    /// Every draft, in the order their names are listed in messages.
    pub const ALL: [Draft; 2] = [Draft::Draft2020_12, Draft::Draft7];

    /// The draft's short name, as every host spells it: `2020-12`, `7`.
    pub fn name(self) -> &'static str {
        match self {
            Draft::Draft2020_12 => "2020-12",
            Draft::Draft7 => "7",
        }
    }

    /// The draft's meta-schema URI, as `$schema` names it.
    pub fn uri(self) -> &'static str {
        match self {
            Draft::Draft7 => "http://json-schema.org/draft-07/schema#",
            Draft::Draft2020_12 => "https://json-schema.org/draft/2020-12/schema",
        }
    }

    /// The draft a `$schema` value names, if toolgate implements it (an empty
    /// fragment and `http`/`https` are taken as the drafts' own spellings do).
    pub fn from_uri(uri: &str) -> Option<Draft> {
        let trimmed = uri.strip_suffix('#').unwrap_or(uri);
        match trimmed {
            "http://json-schema.org/draft-07/schema"
            | "https://json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            "https://json-schema.org/draft/2020-12/schema"
            | "http://json-schema.org/draft/2020-12/schema" => Some(Draft::Draft2020_12),
            _ => None,
        }
    }
}

impl fmt::Display for Draft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Draft {
    type Err = UnknownName;
    /// `2020-12` or `7` (also spelt `07` and `draft-07`).
    ///
    /// ```
    /// use toolgate_core::Draft;
    /// assert_eq!("draft-07".parse::<Draft>(), Ok(Draft::Draft7));
    /// assert_eq!("4".parse::<Draft>().unwrap_err().message, r#"unknown draft "4" (known: 2020-12, 7)"#);
    /// ```
    fn from_str(s: &str) -> Result<Draft, UnknownName> {
        match s {
            "2020-12" => Ok(Draft::Draft2020_12),
            "7" | "07" | "draft-07" => Ok(Draft::Draft7),
            _ => Err(UnknownName::new("draft", s, &Draft::ALL.map(Draft::name))),
        }
    }
}

/// A schema document registered under a URI before compiling, for references to
/// reach (`"$ref": "https://example.com/address.json"`): references never reach the
/// network.
#[derive(Clone, Debug)]
#[allow(dead_code)] // read by the full profile's resolver, which lands next
pub(crate) struct Resource {
    pub uri: String,
    pub doc: Arc<OwnedDoc>,
}

/// Options for [`Schema::compile_with`](super::Schema::compile_with), built from
/// [`Options::default`] with the `with_*` methods, so that options added later never
/// break a caller.
///
/// ```
/// use toolgate_core::{Options, Profile, Schema};
/// let opts = Options::default().with_max_depth(16).with_profile(Profile::Full);
/// let schema = Schema::compile_with(br#"{"type":"object"}"#, &opts).unwrap();
/// assert!(schema.is_valid(br#"{"a":{}}"#));
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    max_depth: usize,
    profile: Profile,
    draft: Draft,
    resources: Vec<Resource>,
    annotation_formats: Vec<String>,
    dialect: SchemaDialect,
    masked: bool,
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

    /// The keywords a schema may use (default [`Profile::Core`]).
    pub fn with_profile(mut self, profile: Profile) -> Options {
        self.profile = profile;
        self
    }

    /// The draft of a schema without `$schema`, in the full profile (default draft
    /// 2020-12).
    pub fn with_default_draft(mut self, draft: Draft) -> Options {
        self.draft = draft;
        self
    }

    /// Registers the schema document `json` under the absolute URI `uri`, for the full
    /// profile's references to reach. Refused when `json` is not JSON.
    pub fn with_resource(mut self, uri: &str, json: &[u8]) -> Result<Options, CompileError> {
        let doc = OwnedDoc::parse(json, self.max_depth).map_err(|e| {
            CompileError::single(
                "",
                "",
                format!(
                    "resource {} is not valid JSON: {}",
                    super::message::quoted(uri),
                    e.message(json)
                ),
            )
        })?;
        self.resources.push(Resource {
            uri: uri.to_owned(),
            doc: Arc::new(doc),
        });
        Ok(self)
    }

    /// Format names the full profile accepts as annotations only (not checked), beside
    /// the ones it asserts; any other unknown format is refused. For example OpenAPI's
    /// `binary` and `password`.
    pub fn with_annotation_formats<I, S>(mut self, names: I) -> Options
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.annotation_formats
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// The language schemas are written in (default JSON Schema). OpenAPI 3.0 schema
    /// objects compile with the full profile's keywords, whatever the profile.
    ///
    /// ```
    /// use toolgate_core::{Options, Schema, SchemaDialect};
    /// let opts = Options::default().with_schema_dialect(SchemaDialect::OpenApi3_0);
    /// let s = Schema::compile_with(
    ///     br#"{"type":"object","properties":{"n":{"type":"integer","format":"int32","nullable":true}}}"#,
    ///     &opts,
    /// )
    /// .unwrap();
    /// assert!(s.is_valid(br#"{"n":null}"#));
    /// assert!(!s.is_valid(br#"{"n":2147483648}"#));
    /// ```
    pub fn with_schema_dialect(mut self, dialect: SchemaDialect) -> Options {
        self.dialect = dialect;
        self
    }

    /// When true, no value of the instance appears in a violation's message: where a
    /// message would quote it (`"kelvin" is not one of ["c","f"]`) it says `value`
    /// instead (`value is not one of ["c","f"]`), and a malformed document's message
    /// names no character of it. What comes from the schema (allowed values, patterns,
    /// limits), paths, pointers, property names and keywords stay. For values that must
    /// not reach logs or a model's context (secrets, personal data). Default false.
    ///
    /// ```
    /// use toolgate_core::{Options, Schema};
    /// let opts = Options::default().with_masked_values(true);
    /// let s = Schema::compile_with(br#"{"enum":["c","f"]}"#, &opts).unwrap();
    /// assert_eq!(s.validate_json(br#""kelvin""#)[0].message, r#"value is not one of ["c","f"]"#);
    /// ```
    pub fn with_masked_values(mut self, masked: bool) -> Options {
        self.masked = masked;
        self
    }

    /// True when instance values are masked in messages.
    pub fn masked_values(&self) -> bool {
        self.masked
    }

    /// The language schemas are written in.
    pub fn schema_dialect(&self) -> SchemaDialect {
        self.dialect
    }

    /// The nesting limit these options set.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The draft of a schema without `$schema`.
    pub fn default_draft(&self) -> Draft {
        self.draft
    }

    #[allow(dead_code)] // read by the full profile's resolver, which lands next
    pub(crate) fn resources(&self) -> &[Resource] {
        &self.resources
    }

    #[allow(dead_code)] // read by the full profile's format keyword, which lands next
    pub(crate) fn annotation_formats(&self) -> &[String] {
        &self.annotation_formats
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_depth: Self::DEFAULT_MAX_DEPTH,
            profile: Profile::Core,
            draft: Draft::Draft2020_12,
            resources: Vec::new(),
            annotation_formats: Vec::new(),
            dialect: SchemaDialect::JsonSchema,
            masked: false,
        }
    }
}
