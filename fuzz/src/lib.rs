//! The fuzz targets' properties live in `checks.rs`, which the main crate's
//! `tests/fuzz_regressions.rs` also compiles, to replay every committed crash input.

#[path = "checks.rs"]
pub mod checks;
