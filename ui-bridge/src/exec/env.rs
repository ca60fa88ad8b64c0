//! The environment a plan's children start from (DESIGN.md section 8): the
//! host's own variables minus the blocklist, then a request's checked
//! overrides.
//!
//! It decides how that environment reaches a child. Building it per spawn
//! (clearing, then setting every variable) costs the bridge 10–20 µs a
//! request, so when filtering this process's own environment removed
//! nothing, children simply inherit it: the result is the same set of
//! variables. That holds only while the process environment does not
//! change after start; nothing in this workspace changes it (setting a
//! variable needs `unsafe` in Rust 2024, and the crates that embed an exec
//! host forbid `unsafe` code). Any blocked, malformed, non-UTF-8 or
//! repeated variable in the process environment, and any override, turns
//! inheritance off and the child gets exactly [`ChildEnv::vars`].

use std::collections::BTreeMap;
use std::ffi::OsString;

use approvals_ipc::policy::env::{EnvRefusal, child_env};

/// The variables every child of a plan starts with, built once per host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildEnv {
    vars: Vec<(String, String)>,
    /// Whether `vars` is exactly this process's environment, so children
    /// may inherit it instead of receiving it variable by variable.
    inherit: bool,
}

impl ChildEnv {
    /// This process's environment minus the blocklist, so a host filters
    /// once at start instead of per request.
    pub fn from_process() -> Self {
        Self::from_host(std::env::vars_os())
    }

    /// Exactly `vars`, whatever this process's own environment holds: for
    /// callers that choose the child's environment themselves.
    pub fn exactly(vars: Vec<(String, String)>) -> Self {
        Self {
            vars,
            inherit: false,
        }
    }

    /// These variables plus a request's overrides, which must pass the
    /// same checks as [`child_env`]; a refusal says which key and why.
    pub fn with_overrides(&self, overrides: &BTreeMap<String, String>) -> Result<Self, EnvRefusal> {
        child_env(self.vars.iter().cloned(), overrides).map(Self::exactly)
    }

    /// The variables a child gets, sorted by name.
    pub fn vars(&self) -> &[(String, String)] {
        &self.vars
    }

    /// Whether a child may inherit this process's environment as it is.
    pub fn inherits(&self) -> bool {
        self.inherit
    }

    /// Filters `host` (a process environment, in order); inheritance is
    /// kept only when filtering dropped nothing.
    fn from_host(host: impl IntoIterator<Item = (OsString, OsString)>) -> Self {
        let mut seen = 0usize;
        let mut lossless = true;
        let utf8 = host.into_iter().filter_map(|(key, value)| {
            seen += 1;
            let pair = key.into_string().ok().zip(value.into_string().ok());
            lossless &= pair.is_some();
            pair
        });
        // No overrides: this only filters, so it cannot be refused.
        let vars = child_env(utf8, &BTreeMap::new()).unwrap_or_default();
        // `child_env` only drops (blocked, malformed, repeated) variables,
        // so an equal count means nothing was dropped.
        let inherit = lossless && vars.len() == seen;
        if !inherit {
            tracing::debug!(
                kept = vars.len(),
                of = seen,
                "the environment held variables children must not get; each child gets the filtered set"
            );
        }
        Self { vars, inherit }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect()
    }

    #[test]
    fn a_clean_environment_is_inherited_as_it_is() {
        let env = ChildEnv::from_host(host(&[("PATH", "/usr/bin"), ("HOME", "/home/u")]));
        assert!(env.inherits());
        assert_eq!(
            env.vars(),
            [
                ("HOME".to_owned(), "/home/u".to_owned()),
                ("PATH".to_owned(), "/usr/bin".to_owned())
            ]
        );
    }

    #[test]
    fn a_blocked_variable_turns_inheritance_off_and_is_stripped() {
        for blocked in [
            "LD_PRELOAD",
            "BASH_ENV",
            "NODE_OPTIONS",
            "DYLD_INSERT_LIBRARIES",
        ] {
            let env = ChildEnv::from_host(host(&[("PATH", "/usr/bin"), (blocked, "/tmp/x")]));
            assert!(!env.inherits(), "{blocked}");
            assert!(env.vars().iter().all(|(k, _)| k != blocked), "{blocked}");
        }
    }

    #[test]
    fn malformed_repeated_or_non_utf8_variables_turn_inheritance_off() {
        let repeated = host(&[("A", "1"), ("A", "2")]);
        assert!(!ChildEnv::from_host(repeated).inherits());
        let malformed = host(&[("A", "1"), ("BAD-NAME", "2")]);
        assert!(!ChildEnv::from_host(malformed).inherits());
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt as _;
            let raw = vec![
                (OsString::from("A"), OsString::from("1")),
                (OsString::from("B"), OsString::from_vec(vec![0xff, 0xfe])),
            ];
            let env = ChildEnv::from_host(raw);
            assert!(!env.inherits());
            assert_eq!(env.vars(), [("A".to_owned(), "1".to_owned())]);
        }
    }

    #[test]
    fn overrides_are_checked_and_never_inherited() {
        let env = ChildEnv::from_host(host(&[("PATH", "/usr/bin")]));
        let with = env
            .with_overrides(&BTreeMap::from([("GREETING".to_owned(), "hi".to_owned())]))
            .unwrap();
        assert!(!with.inherits());
        assert!(
            with.vars()
                .contains(&("GREETING".to_owned(), "hi".to_owned()))
        );
        let path = BTreeMap::from([("PATH".to_owned(), "/tmp".to_owned())]);
        assert!(env.with_overrides(&path).is_err());
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        /// `ui-bridge serve` re-executes itself once in the filtered
        /// environment; it must then be inheritable, or it would restart
        /// forever.
        #[test]
        fn the_filtered_environment_is_inherited_on_the_next_start(
            pairs in proptest::collection::vec(
                (
                    proptest::prop_oneof![
                        proptest::sample::select(vec![
                            "PATH", "HOME", "SHELL", "LD_PRELOAD", "ld_preload", "BASH_ENV",
                            "GIT_DIR", "DYLD_x", "LANG", "BAD-NAME", "1X", "", "A",
                        ])
                        .prop_map(str::to_owned),
                        "[A-Za-z_][A-Za-z0-9_]{0,6}",
                    ],
                    "[ -~]{0,8}",
                ),
                0..12,
            )
        ) {
            let first = ChildEnv::from_host(
                pairs.iter().map(|(k, v)| (OsString::from(k), OsString::from(v))),
            );
            let again = ChildEnv::from_host(
                first.vars().iter().map(|(k, v)| (OsString::from(k), OsString::from(v))),
            );
            proptest::prop_assert!(again.inherits());
            proptest::prop_assert_eq!(again.vars(), first.vars());
        }
    }

    #[test]
    fn an_explicit_environment_is_never_inherited() {
        assert!(!ChildEnv::exactly(vec![("A".to_owned(), "1".to_owned())]).inherits());
    }
}
