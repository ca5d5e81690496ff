//! Registering many tools at once: all or nothing, one snapshot copy.
//!
//! [`Registry::register`] copies the snapshot on every registration (that is what lets
//! calls read it without a lock), so a host that loads 10,000 tools one by one copies
//! a growing set 10,000 times. A batch checks and compiles every tool first, outside
//! the writer lock, and then publishes one snapshot holding all of them.

use std::collections::HashSet;
use std::sync::{Arc, PoisonError};

use super::ToolSpec;
use super::{message, Handler, RegisterError, RegisterErrorKind, Registry};

impl Registry {
    /// Registers every tool of `tools`, each with its handler, or none of them.
    ///
    /// Each tool is checked as [`Registry::register`] checks one (name, schema, the
    /// target dialects, an existing tool of the same name unless `allow_override`),
    /// and a name listed
    /// twice in the batch is refused whatever `allow_override` says. On the first
    /// refusal, in the batch's order, the error names that tool, every handler of the
    /// batch is dropped (so its destructor runs) and the registry is unchanged. On
    /// success the tools appear together, in one new snapshot: a call sees all of them
    /// or none.
    ///
    /// ```
    /// use toolgate_core::{CallContext, Handler, Registry, ToolSpec};
    /// let registry = Registry::default();
    /// let tool = |name: &str| {
    ///     let spec = ToolSpec { name: name.into(), ..ToolSpec::default() };
    ///     let handler: Box<dyn Handler> = Box::new(|_: &[u8], _: &CallContext| Ok("ok".to_string()));
    ///     (spec, handler)
    /// };
    /// registry.register_batch(vec![tool("a"), tool("b")], false).unwrap();
    /// assert_eq!(registry.names(), ["a", "b"]);
    ///
    /// let refused = registry.register_batch(vec![tool("c"), tool("a")], false).unwrap_err();
    /// assert_eq!(refused.message, r#"tool "a" is already registered"#);
    /// assert_eq!(registry.names(), ["a", "b"]);
    /// ```
    pub fn register_batch(
        &self,
        tools: Vec<(ToolSpec, Box<dyn Handler>)>,
        allow_override: bool,
    ) -> Result<(), RegisterError> {
        if tools.is_empty() {
            return Ok(());
        }
        // Everything but the check against the registered tools happens before the
        // writer lock, as in `register`: compiling 10,000 schemas must not hold up
        // other writers. On any early return the tools built so far, and the handlers
        // not yet reached, drop here, outside the lock.
        let mut seen: HashSet<&str> = HashSet::with_capacity(tools.len());
        for (spec, _) in &tools {
            if !seen.insert(&spec.name) {
                return Err(RegisterError {
                    kind: RegisterErrorKind::Duplicate,
                    message: message::listed_twice(&spec.name),
                });
            }
        }
        drop(seen);
        let mut built = Vec::with_capacity(tools.len());
        for (spec, handler) in tools {
            built.push(self.build_tool(spec, handler)?);
        }

        let guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let current = self.current.load_full();
        if !allow_override {
            if let Some(taken) = built.iter().find(|t| current.contains(&t.name)) {
                let message = message::already_registered(&taken.name);
                drop(guard);
                // The handlers' destructors run here, outside the lock: they may call
                // into this registry.
                drop(built);
                return Err(RegisterError {
                    kind: RegisterErrorKind::Duplicate,
                    message,
                });
            }
        }
        let previous = self.current.swap(Arc::new(current.with_all(built)));
        drop(guard);
        // Replaced tools no call holds are dropped here, after the lock is released.
        drop(previous);
        drop(current);
        Ok(())
    }
}
