//! Keywords that assert nothing: `title`, `description`, `default`, `examples`,
//! `$schema` and `$comment`. Their values are still checked for shape (`title` must
//! be a string), so a schema that misspells one's type is refused rather than ignored.

use crate::json::Value;

use super::super::compile::Compiler;

/// An annotation keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Annotation {
    Title,
    Description,
    Comment,
    Schema,
    Default,
    Examples,
}

impl Annotation {
    pub(crate) fn lookup(name: &str) -> Option<Annotation> {
        Some(match name {
            "title" => Annotation::Title,
            "description" => Annotation::Description,
            "$comment" => Annotation::Comment,
            "$schema" => Annotation::Schema,
            "default" => Annotation::Default,
            "examples" => Annotation::Examples,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Annotation::Title => "title",
            Annotation::Description => "description",
            Annotation::Comment => "$comment",
            Annotation::Schema => "$schema",
            Annotation::Default => "default",
            Annotation::Examples => "examples",
        }
    }

    /// Checks the value's shape.
    pub(crate) fn check(self, c: &mut Compiler<'_>, v: &Value) {
        let name = self.name();
        match self {
            Annotation::Title
            | Annotation::Description
            | Annotation::Comment
            | Annotation::Schema => {
                if !matches!(v, Value::String(_)) {
                    c.problem(name, format!("\"{name}\" must be a string"));
                }
            }
            Annotation::Examples => {
                if !matches!(v, Value::Array(_)) {
                    c.problem(name, "\"examples\" must be an array");
                }
            }
            Annotation::Default => {}
        }
    }
}
