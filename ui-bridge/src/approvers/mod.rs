//! Approvers: the ways a person (or a program acting for one) answers a
//! pending approval. Each subscribes to the broker and answers through it,
//! so the first valid answer wins whichever approver gives it (DESIGN.md
//! section 7).
pub mod hook;
