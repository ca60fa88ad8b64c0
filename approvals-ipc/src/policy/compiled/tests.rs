use serde_json::json;

use super::*;
use crate::policy::Verdict;
use crate::policy::decision::tests::compiled as compile;

#[test]
fn the_host_context_is_this_process_path_and_home() {
    let host = HostContext::from_process();
    assert_eq!(host.path, std::env::var_os("PATH"));
    assert_eq!(host.home, std::env::home_dir());
}

#[test]
fn the_home_directory_expands_tilde_in_scripts() {
    let c = compile(json!({"version": 1, "defaults": {"security": "full"}}));
    assert_eq!(c.home(), Some(Path::new("/home/test")));
    let argv: Vec<String> = ["sh", "-c", "ls ~/notes"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let e = c.evaluate(&argv, Path::new("/tmp"), &Default::default());
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    assert_eq!(*e.analysis.segments[0].argv, ["ls", "/home/test/notes"]);
}

#[test]
fn a_safe_bin_without_a_usable_profile_warns_once_and_is_never_safe() {
    let c = compile(json!({"version": 1, "defaults": {
        "security": "allowlist",
        "safeBins": ["mytool", "head"],
        "safeBinProfiles": {"head": {"maxPositional": "many"}}
    }}));
    let warnings = c.warnings();
    let about = |bin: &str| warnings.iter().filter(|w| w.contains(bin)).count();
    assert_eq!(about("\"mytool\""), 1, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"mytool\" has no profile")),
        "{warnings:?}"
    );
    assert_eq!(
        about("\"head\""),
        1,
        "an invalid profile is reported as invalid, not also as missing: {warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"head\" has an invalid profile")),
        "{warnings:?}"
    );
    assert!(c.safe_bins.is_empty(), "neither is safe");
}
