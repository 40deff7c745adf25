//! What `build.rs` calls (DESIGN.md §7): differentiate into OUT_DIR, compile, link.

/// Builder for use from `build.rs`.
#[derive(Clone, Debug, Default)]
pub struct Build {}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Other(String),
}
