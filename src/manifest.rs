//! The `ad.toml` manifest (INTERFACE.md §1).
