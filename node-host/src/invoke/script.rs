//! The script a command runs, when it names one: `./build.sh`,
//! `sh deploy.sh`, `python3 tool.py`. Its bytes are hashed into the plan
//! an approval is bound to and hashed again before the run, so a script
//! rewritten after a person approved it does not run (OpenClaw's
//! `mutableFileOperand`, "approval script operand changed before
//! execution").

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::plan::FileOperand;

/// Interpreters whose first operand is the script they run.
const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "dash",
    "zsh",
    "ksh",
    "mksh",
    "ash",
    "fish",
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "node",
    "nodejs",
    "deno",
    "bun",
    "tsx",
    "perl",
    "ruby",
    "php",
    "lua",
    "Rscript",
    "osascript",
];

/// Scripts larger than this are not hashed: their plan binds
/// [`UNHASHABLE`], so an approval of them never runs.
const MAX_SCRIPT: u64 = 16 * 1024 * 1024;

/// The sha256 a plan binds for a script that cannot be hashed (larger than
/// [`MAX_SCRIPT`], unreadable): no known bytes hash to it, so its approval
/// is refused, as OpenClaw refuses an approval no file can be bound to,
/// instead of covering the argv only while the script changes.
const UNHASHABLE: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The script operand of `argv` run in `cwd`, hashed; `None` when the
/// command names no script file.
pub fn operand(argv: &[String], cwd: &Path) -> Option<FileOperand> {
    let index = script_index(argv, cwd)?;
    let path = absolute(&argv[index], cwd);
    let sha256 = hash(&path).unwrap_or_else(|| {
        tracing::warn!(
            path = %path.display(),
            "the script cannot be hashed (unreadable or larger than {MAX_SCRIPT} bytes); \
             an approval of this command will be refused"
        );
        UNHASHABLE.to_owned()
    });
    Some(FileOperand {
        argv_index: index,
        path: path.to_string_lossy().into_owned(),
        sha256,
    })
}

/// Whether the script still has the bytes `operand` recorded.
pub fn unchanged(operand: &FileOperand) -> bool {
    operand.sha256 != UNHASHABLE
        && hash(Path::new(&operand.path)).is_some_and(|now| now == operand.sha256)
}

/// Which argv word names the script: the program itself when it is a
/// path to a file outside the system's directories, else an
/// interpreter's first operand that is an existing file.
fn script_index(argv: &[String], cwd: &Path) -> Option<usize> {
    let program = argv.first()?;
    if program.contains('/') && !is_system_path(&absolute(program, cwd)) {
        return is_file(&absolute(program, cwd)).then_some(0);
    }
    let name = Path::new(program).file_name()?.to_str()?;
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if !INTERPRETERS.contains(&name) && !INTERPRETERS.contains(&base) {
        return None;
    }
    // The first word that is not an option; options with values are not
    // told apart, so a value that names a file is taken (hashing more is
    // never less safe).
    argv.iter().enumerate().skip(1).find_map(|(i, word)| {
        (!word.starts_with('-') && is_file(&absolute(word, cwd))).then_some(i)
    })
}

fn absolute(word: &str, cwd: &Path) -> PathBuf {
    let path = Path::new(word);
    if path.is_absolute() {
        path.to_owned()
    } else {
        cwd.join(path)
    }
}

fn is_system_path(path: &Path) -> bool {
    ["/usr/", "/bin/", "/sbin/", "/lib/", "/opt/", "/nix/store/"]
        .iter()
        .any(|dir| path.starts_with(dir))
}

fn is_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

fn hash(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    if file.metadata().ok()?.len() > MAX_SCRIPT {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT + 1).read_to_end(&mut bytes).ok()?;
    Some(hex::encode(Sha256::digest(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_found_hashed_and_rechecked() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("deploy.sh");
        std::fs::write(&script, "echo one\n").unwrap();
        let argv = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let found = operand(&argv(&["sh", "-e", "deploy.sh"]), dir.path()).unwrap();
        assert_eq!(found.argv_index, 2);
        assert_eq!(found.path, script.to_string_lossy());
        assert!(unchanged(&found));
        std::fs::write(&script, "echo two\n").unwrap();
        assert!(!unchanged(&found));
        let direct = operand(&argv(&["./deploy.sh"]), dir.path()).unwrap();
        assert_eq!(direct.argv_index, 0);
        assert!(operand(&argv(&["python3.12", "deploy.sh"]), dir.path()).is_some());
        assert!(operand(&argv(&["echo", "deploy.sh"]), dir.path()).is_none());
        assert!(operand(&argv(&["sh", "-c", "echo hi"]), dir.path()).is_none());
        assert!(operand(&argv(&["/bin/echo", "hi"]), dir.path()).is_none());
        std::fs::remove_file(&script).unwrap();
        assert!(!unchanged(&found));
    }

    #[test]
    fn a_script_of_the_largest_size_is_hashed_to_its_last_byte() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("big.sh");
        let mut bytes = vec![b'#'; 16 * 1024 * 1024];
        std::fs::write(&script, &bytes).unwrap();
        let argv = vec!["sh".to_owned(), "big.sh".to_owned()];
        let found = operand(&argv, dir.path()).unwrap();
        assert!(unchanged(&found));
        if let Some(last) = bytes.last_mut() {
            *last = b'!';
        }
        std::fs::write(&script, &bytes).unwrap();
        assert!(!unchanged(&found));
        // One byte more cannot be hashed: the plan binds a hash that never
        // holds, so the script cannot be swapped under an approval.
        bytes.push(b'\n');
        std::fs::write(&script, &bytes).unwrap();
        let too_big = operand(&argv, dir.path()).unwrap();
        assert_eq!(too_big.argv_index, 1);
        assert_eq!(too_big.sha256, UNHASHABLE);
        assert!(!unchanged(&too_big));
    }
}
