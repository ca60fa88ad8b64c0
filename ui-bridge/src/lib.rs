//! The exec host library.
pub mod approvers;
pub mod broker;
pub mod exec;
