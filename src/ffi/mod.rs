//! The C surface. No logic lives here: only the boundary.
