//! The node runner library.
