//! The strict reader for the bytes a model sends (RFC 8259, no extensions).
