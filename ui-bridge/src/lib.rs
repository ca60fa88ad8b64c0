//! The exec host library.
