//! Helpers shared by the end-to-end suites: temp homes and the paths of the real binaries.
