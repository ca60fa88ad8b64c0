//! The exec host library.
pub mod exec;
