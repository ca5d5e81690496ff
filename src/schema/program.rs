//! The compiled form of a schema: each (sub)schema a [`Node`], and each node's keywords
//! in per-group tables of the [`Program`]. A node is 32 bytes of hot fields (the types
//! it accepts, what else the walk must do, and an index per keyword group), copied
//! into its parent's group (a property's node sits in the object group's table, beside
//! the others), so the walk reaches a member's rules in one step. A group a node lacks
//! is `NONE`, which is also out of bounds of every table, so `table.get(index)` is both
//! the presence test and the lookup. Every node is also kept in [`Program::nodes`],
//! addressed by its [`NodeId`], for what refers to a schema by its place rather than
//! containing it (the root, and references).

use super::keywords::applicator::ApplicatorGroup;
use super::keywords::array::ArrayGroup;
use super::keywords::choice::ChoiceGroup;
use super::keywords::number::NumberGroup;
use super::keywords::object::ObjectGroup;
use super::keywords::string::StringGroup;
use super::keywords::types::{T_ALL, T_OBJECT};

/// The index of a group, or of a node, that is not there.
pub(crate) const NONE: u32 = u32::MAX;

/// One compiled (sub)schema.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// The JSON types the node accepts: `type`'s (`T_ALL` when there is no `type`), or
    /// none for `false`. `true` (or a schema of annotations only) is `T_ALL` with no
    /// groups: its value is still read, strictly, and nothing else.
    pub types: u8,
    /// Keywords that look at the whole value again after the per-type checks (`enum`,
    /// `const`, the in-place applicators): the walk remembers where the value started.
    pub rereads: bool,
    /// `type`'s text for messages (`string or null`), in [`Program::texts`].
    pub types_text: u32,
    pub object: u32,
    pub array: u32,
    pub string: u32,
    pub number: u32,
    /// `enum` and `const`.
    pub choice: u32,
    /// The in-place applicators (`anyOf`, ...).
    pub applicator: u32,
}

impl Node {
    /// `true`: anything passes.
    pub(crate) const ANY: Node = Node::of_types(T_ALL);
    /// `false`: nothing passes.
    pub(crate) const NEVER: Node = Node::of_types(0);

    const fn of_types(types: u8) -> Node {
        Node {
            types,
            rereads: false,
            types_text: NONE,
            object: NONE,
            array: NONE,
            string: NONE,
            number: NONE,
            choice: NONE,
            applicator: NONE,
        }
    }
}

/// Every node of one schema and the keyword groups they use.
#[derive(Default)]
pub(crate) struct Program {
    pub nodes: Vec<Node>,
    pub texts: Vec<Box<str>>,
    pub objects: Vec<ObjectGroup>,
    pub arrays: Vec<ArrayGroup>,
    pub strings: Vec<StringGroup>,
    pub numbers: Vec<NumberGroup>,
    pub choices: Vec<ChoiceGroup>,
    pub applicators: Vec<ApplicatorGroup>,
}

/// Adds `item` to `table` and returns its index.
pub(crate) fn push<T>(table: &mut Vec<T>, item: T) -> u32 {
    table.push(item);
    (table.len() - 1) as u32
}

impl Program {
    /// The text at `index` of [`Program::texts`].
    pub(crate) fn text(&self, index: u32) -> &str {
        &self.texts[index as usize]
    }

    /// True when the node accepts objects only (`"type": "object"`): what a tool's
    /// parameters must declare.
    pub(crate) fn requires_object(&self, node: &Node) -> bool {
        node.types == T_OBJECT
    }

    /// True for `false`.
    pub(crate) fn is_never(node: &Node) -> bool {
        node.types == 0
    }

    /// How many schemas `anyOf` nesting may make the walk try for one value at `node`.
    pub(crate) fn alternatives(&self, node: &Node) -> usize {
        self.applicators
            .get(node.applicator as usize)
            .map_or(1, |g| g.alternatives)
    }
}

// Nodes are scanned in the walk's hottest loop: keep them two to a cache line, and an
// absent one (`Option<Node>`, a name only `required` lists) no larger.
const _: () = assert!(std::mem::size_of::<Node>() == 32);
const _: () = assert!(std::mem::size_of::<Option<Node>>() == 32);
