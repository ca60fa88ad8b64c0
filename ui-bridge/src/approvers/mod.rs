//! Approvers: the ways a person (or a program acting for one) answers a
//! pending approval. Each subscribes to the broker; the first valid answer
//! wins.

pub mod chat;
pub mod hook;
pub mod terminal;
