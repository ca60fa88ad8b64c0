//! The exec host library.

pub mod approvers;
pub mod audit;
