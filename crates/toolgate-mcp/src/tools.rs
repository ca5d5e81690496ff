//! An upstream's tool list, compiled: every tool's `inputSchema` and `outputSchema`
//! registered in a toolgate registry (the full profile, references never fetched), and
//! the list the host sees, less the tools whose schemas do not compile.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use toolgate_core::{CallContext, Handler, Registry, RegistryOptions, ToolSpec};
use toolgate_dialect::{lint_tool, LintProblem, Target};

/// How a listed tool is judged besides compiling: the flags of the command line.
#[derive(Clone, Copy, Debug, Default)]
pub struct ListPolicy {
    /// Pass tools whose schemas do not compile through unvalidated.
    pub pass_unchecked: bool,
    /// The provider mode each tool's `inputSchema` is linted for, its problems logged.
    pub target: Option<Target>,
    /// Withhold the tools `target` finds problems in.
    pub enforce_target: bool,
}

/// The tools already logged, each as a hash of its name and its exact text, so a tool
/// is logged once per distinct declaration however often the list is read.
#[derive(Default)]
pub struct Logged(HashSet<u64>);

impl Logged {
    /// True the first time `raw` (a tool as the upstream wrote it) is seen.
    fn first(&mut self, raw: &RawValue) -> bool {
        self.0.insert(hash(raw))
    }
}

/// The tools the gateway checks calls against.
pub struct ToolSet {
    /// Every tool whose schemas compiled.
    pub registry: Registry,
    /// Tools passed through unvalidated (`--pass-unchecked`): their calls and results
    /// are relayed unchecked.
    pub unchecked: HashSet<String>,
    /// The hash of each registered tool's text, so the same tool listed again is not
    /// compiled again.
    compiled: HashMap<String, u64>,
}

impl ToolSet {
    /// Removes the tool named `name`, if it is registered.
    fn forget(&mut self, name: &str) {
        if self.compiled.remove(name).is_some() {
            self.registry.unregister(name);
        }
    }

    /// An empty set whose tools are compiled with `options`.
    pub fn new(options: RegistryOptions) -> ToolSet {
        ToolSet {
            registry: Registry::with_options(options),
            unchecked: HashSet::new(),
            compiled: HashMap::new(),
        }
    }
}

fn hash(raw: &RawValue) -> u64 {
    let mut h = DefaultHasher::new();
    raw.get().hash(&mut h);
    h.finish()
}

/// One page of a `tools/list` result, read.
pub struct Page<'a> {
    /// The tools the host may see, as the upstream wrote them.
    pub kept: Vec<&'a RawValue>,
    /// How many tools were withheld.
    pub withheld: usize,
    /// The cursor of the next page.
    pub next_cursor: Option<String>,
    /// The result's members in the upstream's order, for rewriting it.
    members: Vec<(Cow<'a, str>, &'a RawValue)>,
}

impl Page<'_> {
    /// The result with `tools` replaced by the kept tools, every other member as the
    /// upstream wrote it.
    pub fn rewritten(&self) -> String {
        let mut out = String::from("{");
        for (i, (key, value)) in self.members.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&serde_json::to_string(key).expect("a key serializes"));
            out.push(':');
            if key == "tools" {
                out.push('[');
                for (j, tool) in self.kept.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    out.push_str(tool.get());
                }
                out.push(']');
            } else {
                out.push_str(value.get());
            }
        }
        out.push('}');
        out
    }
}

/// A JSON object's members in their order, values unparsed.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Members<'a>, M::Error> {
                let mut out: Vec<(Cow<'a, str>, &'a RawValue)> = Vec::new();
                while let Some((k, v)) = map.next_entry::<Cow<'a, str>, &'a RawValue>()? {
                    if out.iter().any(|(seen, _)| *seen == k) {
                        return Err(serde::de::Error::custom(format!("duplicate member {k:?}")));
                    }
                    out.push((k, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The schemas of one tool, as the upstream wrote them.
#[derive(Deserialize)]
struct Schemas<'a> {
    #[serde(rename = "inputSchema", borrow)]
    input: &'a RawValue,
    #[serde(rename = "outputSchema", borrow, default)]
    output: Option<&'a RawValue>,
}

/// The handler of a tool the gateway only checks: calls go to the upstream, never here.
fn relayed(_: &[u8], _: &CallContext<'_>) -> Result<String, String> {
    Err("relayed to the upstream server".to_owned())
}

/// Reads one page of a `tools/list` result: each tool read as MCP's `Tool`, its
/// schemas compiled into `set` (replacing a tool of the same name). A tool that is not
/// an MCP tool, or whose name or schemas the registry refuses, is withheld and logged
/// with every problem, unless `policy.pass_unchecked`, which keeps it unvalidated with
/// a warning. With a `policy.target`, each compiled tool's `inputSchema` is linted for
/// it and its problems logged; with `policy.enforce_target` such a tool is withheld.
/// `log` receives each line to write; a tool is logged once per distinct declaration
/// (`logged` remembers them).
pub fn read_page<'a>(
    result: &'a RawValue,
    set: &mut ToolSet,
    policy: &ListPolicy,
    logged: &mut Logged,
    log: &mut dyn FnMut(String),
) -> Result<Page<'a>, String> {
    let members: Members<'a> =
        serde_json::from_str(result.get()).map_err(|e| format!("tools/list result: {e}"))?;
    let members = members.0;
    let tools = members
        .iter()
        .find(|(k, _)| k == "tools")
        .map(|(_, v)| *v)
        .ok_or("tools/list result without tools")?;
    let tools: Vec<&'a RawValue> =
        serde_json::from_str(tools.get()).map_err(|e| format!("tools/list tools: {e}"))?;
    let next_cursor = match members.iter().find(|(k, _)| k == "nextCursor") {
        Some((_, v)) => serde_json::from_str::<Option<String>>(v.get())
            .map_err(|e| format!("tools/list nextCursor: {e}"))?,
        None => None,
    };
    let mut kept = Vec::with_capacity(tools.len());
    let mut withheld = 0;
    // Each tool is checked alone in a scratch registry, and the page's tools that
    // pass are registered together: one copy of the set, not one per tool.
    let scratch = Registry::with_options(set.registry.options().clone());
    let mut batch: Vec<(ToolSpec, Box<dyn Handler>)> = Vec::new();
    let mut in_batch: HashMap<String, usize> = HashMap::new();
    for raw in tools {
        let mut say = |line: String, logged: &mut Logged| {
            if logged.first(raw) {
                log(line);
            }
        };
        match compile_tool(raw, set, &scratch) {
            Ok((name, input, spec)) => {
                let problems = match policy.target {
                    Some(target) => lint_tool(target, &name, input.get()),
                    None => Vec::new(),
                };
                let accept = |set: &mut ToolSet, batch: &mut Vec<(ToolSpec, Box<dyn Handler>)>| {
                    set.unchecked.remove(&name);
                    if let Some(spec) = spec {
                        set.compiled.insert(name.clone(), hash(raw));
                        let handler: Box<dyn Handler> = Box::new(relayed);
                        match in_batch.get(&name) {
                            Some(&i) => batch[i] = (spec, handler),
                            None => {
                                in_batch.insert(name.clone(), batch.len());
                                batch.push((spec, handler));
                            }
                        }
                    }
                };
                if problems.is_empty() {
                    accept(set, &mut batch);
                    kept.push(raw);
                } else if policy.enforce_target {
                    let target = policy.target.expect("a target was linted for");
                    say(
                        format!(
                            "tool {name} withheld from the host: {target} refuses it (--enforce-target):\n{}",
                            LintProblem::join_lines(&problems)
                        ),
                        logged,
                    );
                    set.forget(&name);
                    withheld += 1;
                } else {
                    let target = policy.target.expect("a target was linted for");
                    say(
                        format!(
                            "tool {name}: {} problem(s) for {target}:\n{}",
                            problems.len(),
                            LintProblem::join_lines(&problems)
                        ),
                        logged,
                    );
                    accept(set, &mut batch);
                    kept.push(raw);
                }
            }
            Err((name, why)) if policy.pass_unchecked => {
                say(
                    format!(
                        "warning: tool {name} passed through UNVALIDATED (--pass-unchecked): {why}"
                    ),
                    logged,
                );
                set.forget(&name);
                set.unchecked.insert(name);
                kept.push(raw);
            }
            Err((name, why)) => {
                say(format!("tool {name} withheld from the host: {why}"), logged);
                set.forget(&name);
                set.unchecked.remove(&name);
                withheld += 1;
            }
        }
    }
    // A tool withheld after one of the same name in this page was accepted is not
    // registered either.
    batch.retain(|(spec, _)| set.compiled.contains_key(&spec.name));
    if let Err(e) = set.registry.register_batch(batch, true) {
        // Each tool passed alone; the batch cannot refuse one. Said, in case it does.
        log(format!(
            "the page's tools could not be registered together: {}",
            e.message
        ));
    }
    Ok(Page {
        kept,
        withheld,
        next_cursor,
        members,
    })
}

/// Compiles one tool in `scratch` (left empty): its name, `inputSchema` and the spec
/// to register (`None` when `set` holds the same tool already), or its name (as well
/// as it could be read) and why not.
fn compile_tool<'a>(
    raw: &'a RawValue,
    set: &ToolSet,
    scratch: &Registry,
) -> Result<(String, &'a RawValue, Option<ToolSpec>), (String, String)> {
    if let Ok(named) = serde_json::from_str::<NameOnly>(raw.get()) {
        if set.compiled.get(&named.name) == Some(&hash(raw)) {
            if let Ok(schemas) = serde_json::from_str::<Schemas<'a>>(raw.get()) {
                return Ok((named.name, schemas.input, None));
            }
        }
    }
    let tool: rmcp::model::Tool = serde_json::from_str(raw.get()).map_err(|e| {
        let named = serde_json::from_str::<NameOnly>(raw.get()).ok();
        // A schema nested too deep to read as a `Tool` gets the registry's refusal,
        // which names the limit, when the registry refuses it too.
        if let (Some(named), Ok(schemas)) = (&named, serde_json::from_str::<Schemas<'_>>(raw.get()))
        {
            let spec = ToolSpec {
                name: named.name.clone(),
                parameters: Some(schemas.input.get().as_bytes().to_vec()),
                output_schema: schemas.output.map(|s| s.get().as_bytes().to_vec()),
                ..ToolSpec::default()
            };
            match scratch.register(spec, Box::new(relayed), true) {
                Err(refusal) => return (named.name.clone(), refusal.message),
                Ok(()) => {
                    scratch.unregister(&named.name);
                }
            }
        }
        let name = named.map_or_else(|| "(unnamed)".to_owned(), |n| format!("{:?}", n.name));
        (name, format!("not an MCP tool: {e}"))
    })?;
    let name = tool.name.to_string();
    let schemas: Schemas<'a> =
        serde_json::from_str(raw.get()).map_err(|e| (name.clone(), e.to_string()))?;
    let spec = ToolSpec {
        name: name.clone(),
        description: tool.description.as_deref().unwrap_or("").to_owned(),
        parameters: Some(schemas.input.get().as_bytes().to_vec()),
        output_schema: schemas.output.map(|s| s.get().as_bytes().to_vec()),
        ..ToolSpec::default()
    };
    scratch
        .register(spec.clone(), Box::new(relayed), true)
        .map_err(|e| (name.clone(), e.message))?;
    scratch.unregister(&name);
    Ok((name, schemas.input, Some(spec)))
}

#[derive(Deserialize)]
struct NameOnly {
    name: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolgate_core::{NamePolicy, Options, Profile};

    fn set() -> ToolSet {
        ToolSet::new(
            RegistryOptions::default()
                .with_names(NamePolicy::Mcp)
                .with_schema_options(Options::default().with_profile(Profile::Full)),
        )
    }

    const UNCHECKED: ListPolicy = ListPolicy {
        pass_unchecked: true,
        target: None,
        enforce_target: false,
    };

    fn raw(s: &str) -> &RawValue {
        serde_json::from_str(s).unwrap()
    }

    const LIST: &str = r#"{"tools":[
        {"name":"ok","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"unevaluatedProperties":false}},
        {"name":"bad","inputSchema":{"type":"object","properties":{"n":{"type":"nope"}},"minLength":"x"}},
        {"name":"draft7","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","dependencies":{"a":["b"]}},"outputSchema":{"type":"object","required":["r"]}}
    ],"nextCursor":"p2","_meta":{"k":1}}"#;

    #[test]
    fn a_tool_whose_schema_does_not_compile_is_withheld_with_every_problem_logged() {
        let mut set = set();
        let mut logs = Vec::new();
        let page = read_page(
            raw(LIST),
            &mut set,
            &ListPolicy::default(),
            &mut Logged::default(),
            &mut |l| logs.push(l),
        )
        .unwrap();
        assert_eq!(page.withheld, 1);
        assert_eq!(page.next_cursor.as_deref(), Some("p2"));
        assert_eq!(set.registry.names(), ["draft7", "ok"]);
        assert_eq!(logs.len(), 1, "{logs:?}");
        assert!(
            logs[0].starts_with("tool bad withheld from the host: invalid parameters for \"bad\"")
        );
        assert!(logs[0].contains("/properties/n/type"), "{}", logs[0]);
        assert!(logs[0].contains("/minLength"), "{}", logs[0]);
        let rewritten: serde_json::Value = serde_json::from_str(&page.rewritten()).unwrap();
        let names: Vec<&str> = rewritten["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["ok", "draft7"]);
        assert_eq!(rewritten["_meta"]["k"], 1);
        assert!(page.rewritten().starts_with(r#"{"tools":[{"name":"ok","#));
    }

    #[test]
    fn the_full_profile_and_draft_07_apply() {
        let mut set = set();
        read_page(
            raw(LIST),
            &mut set,
            &ListPolicy::default(),
            &mut Logged::default(),
            &mut |_| {},
        )
        .unwrap();
        assert!(set.registry.prepare("ok", br#"{"n":1}"#).is_ok());
        assert!(set.registry.prepare("ok", br#"{"n":1,"m":2}"#).is_err());
        assert!(set.registry.prepare("draft7", br#"{"a":1}"#).is_err());
        assert!(set.registry.prepare("draft7", br#"{"a":1,"b":2}"#).is_ok());
    }

    #[test]
    fn pass_unchecked_keeps_the_tool_unvalidated_with_a_warning() {
        let mut set = set();
        let mut logs = Vec::new();
        let page = read_page(
            raw(LIST),
            &mut set,
            &UNCHECKED,
            &mut Logged::default(),
            &mut |l| logs.push(l),
        )
        .unwrap();
        assert_eq!((page.withheld, page.kept.len()), (0, 3));
        assert!(set.unchecked.contains("bad"));
        assert!(logs[0].starts_with("warning: tool bad passed through UNVALIDATED"));
    }

    #[test]
    fn a_tool_that_is_not_an_mcp_tool_or_has_a_refused_name_is_withheld() {
        let mut set = set();
        let list = r#"{"tools":[{"name":"no schema"},{"name":"a b","inputSchema":{"type":"object"}},{"name":"s","inputSchema":{"type":"string"}}]}"#;
        let mut logs = Vec::new();
        let page = read_page(
            raw(list),
            &mut set,
            &ListPolicy::default(),
            &mut Logged::default(),
            &mut |l| logs.push(l),
        )
        .unwrap();
        assert_eq!(page.withheld, 3, "{logs:?}");
        assert!(logs[0].contains("not an MCP tool"), "{logs:?}");
        assert!(logs[1].contains("invalid tool name"), "{logs:?}");
        assert!(
            logs[2].contains("must declare \"type\": \"object\""),
            "{logs:?}"
        );
    }

    #[test]
    fn a_tool_is_logged_once_per_distinct_declaration() {
        let mut set = set();
        let mut logged = Logged::default();
        let mut logs = Vec::new();
        let policy = ListPolicy::default();
        for _ in 0..3 {
            read_page(raw(LIST), &mut set, &policy, &mut logged, &mut |l| {
                logs.push(l)
            })
            .unwrap();
        }
        assert_eq!(logs.len(), 1, "{logs:?}");
        // The same tool declared otherwise is logged again.
        let changed = LIST.replace(r#""minLength":"x""#, r#""minLength":"y""#);
        read_page(raw(&changed), &mut set, &policy, &mut logged, &mut |l| {
            logs.push(l)
        })
        .unwrap();
        assert_eq!(logs.len(), 2, "{logs:?}");
    }

    const LINTED: &str = r#"{"tools":[
        {"name":"open","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}},
        {"name":"closed","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}}
    ]}"#;

    #[test]
    fn a_target_reports_the_lint_of_each_tool_and_keeps_it() {
        let mut set = set();
        let mut logs = Vec::new();
        let policy = ListPolicy {
            target: Some(Target::OpenAiStrict),
            ..ListPolicy::default()
        };
        let page = read_page(
            raw(LINTED),
            &mut set,
            &policy,
            &mut Logged::default(),
            &mut |l| logs.push(l),
        )
        .unwrap();
        assert_eq!((page.kept.len(), page.withheld), (2, 0));
        assert_eq!(logs.len(), 1, "{logs:?}");
        assert!(
            logs[0].starts_with("tool open: ") && logs[0].contains("for openai-strict:\nopen#"),
            "{logs:?}"
        );
        assert!(logs[0].contains("[required-all]"), "{logs:?}");
    }

    #[test]
    fn an_enforced_target_withholds_the_tools_it_refuses() {
        let mut set = set();
        let mut logs = Vec::new();
        let policy = ListPolicy {
            target: Some(Target::OpenAiStrict),
            enforce_target: true,
            ..ListPolicy::default()
        };
        let page = read_page(
            raw(LINTED),
            &mut set,
            &policy,
            &mut Logged::default(),
            &mut |l| logs.push(l),
        )
        .unwrap();
        assert_eq!((page.kept.len(), page.withheld), (1, 1));
        assert_eq!(set.registry.names(), ["closed"]);
        assert!(
            logs[0].starts_with(
                "tool open withheld from the host: openai-strict refuses it (--enforce-target):\nopen#"
            ),
            "{logs:?}"
        );
    }

    #[test]
    fn a_schema_too_deep_to_read_is_withheld_with_the_registrys_message() {
        let mut schema = r#"{"type":"string"}"#.to_owned();
        for _ in 0..70 {
            schema = format!(r#"{{"type":"object","properties":{{"a":{schema}}}}}"#);
        }
        let list = format!(r#"{{"tools":[{{"name":"deep","inputSchema":{schema}}}]}}"#);
        let mut logs = Vec::new();
        let policy = ListPolicy::default();
        let page = read_page(
            raw(&list),
            &mut set(),
            &policy,
            &mut Logged::default(),
            &mut |l| logs.push(l),
        )
        .unwrap();
        assert_eq!(page.withheld, 1);
        assert!(
            logs[0]
                .starts_with("tool deep withheld from the host: invalid parameters for \"deep\""),
            "{logs:?}"
        );
        assert!(logs[0].contains("deep"), "{logs:?}");
    }

    #[test]
    fn a_result_without_tools_is_refused() {
        assert!(read_page(
            raw(r#"{"x":1}"#),
            &mut set(),
            &ListPolicy::default(),
            &mut Logged::default(),
            &mut |_| {}
        )
        .is_err());
    }
}
