//! The exec host library.
pub mod broker;
pub mod exec;
