//! The socket protocol between the node host and the UI bridge.
