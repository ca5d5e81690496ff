//! A call whose answer passes its tool's output schema allocates nothing more than a
//! call of a tool without one: `call_into` into a reused result, once its buffers have
//! grown, allocates nothing either way (counted by the unit-test binary's allocator).

use super::{CallOutcome, CallResult, Handler, Registry, ToolSpec, Written};
use crate::counting_alloc::allocations;
use crate::CallContext;

/// Answers through the caller's buffer, so the handler itself allocates nothing.
struct Forecast;

impl Handler for Forecast {
    fn call(&self, _: &[u8], _: &CallContext) -> Result<String, String> {
        Ok(ANSWER.to_owned())
    }
    fn call_into(&self, _: &[u8], _: &CallContext, out: &mut String) -> Written {
        out.push_str(ANSWER);
        Written::Answer
    }
}

const ANSWER: &str = r#"{"high":21,"sky":"sun","hours":[1,2,3]}"#;

#[test]
fn a_conforming_answer_is_checked_without_allocating() {
    let registry = Registry::default();
    let output = r#"{"type":"object","properties":{"high":{"type":"integer","minimum":-90},"sky":{"enum":["sun","rain"]},"hours":{"type":"array","items":{"type":"integer"}}},"required":["high"],"additionalProperties":false}"#;
    for (name, output) in [("checked", Some(output)), ("free", None)] {
        let spec = ToolSpec {
            name: name.into(),
            output_schema: output.map(|o| o.as_bytes().to_vec()),
            ..ToolSpec::default()
        };
        registry.register(spec, Box::new(Forecast), false).unwrap();
    }
    for name in ["checked", "free"] {
        let mut result = CallResult::default();
        registry.call_into("call_0001", name, b"{}", &CallContext::NONE, &mut result);
        let before = allocations();
        for _ in 0..10 {
            registry.call_into("call_0002", name, b"{}", &CallContext::NONE, &mut result);
        }
        assert_eq!(allocations() - before, 0, "{name}: call_into allocated");
        assert_eq!(result.outcome, CallOutcome::Answered);
        assert_eq!(result.structured, name == "checked");
        assert_eq!(result.content, ANSWER);
    }
}
