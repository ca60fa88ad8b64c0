//! The exec host library.
pub mod exec;
pub mod host;
pub mod serve;
