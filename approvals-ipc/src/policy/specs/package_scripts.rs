//! The package managers' fallback from a script to a program: `yarn NAME`
//! and `yarn run NAME` run the package.json script NAME, or else the
//! binary NAME from node_modules/.bin (tried with yarn 1.22.22); `pnpm
//! NAME`, when NAME is no pnpm command, runs the script NAME, or else NAME
//! as a command from PATH (`pnpm id` runs /usr/bin/id; tried with pnpm
//! 12.21.0). A script is the project's own job and stays allowed; the
//! fallback runs another program, so it is asked. Which one happens is
//! decided by reading the project's package.json when the command is
//! checked: missing, unreadable, too large or not JSON asks.
//!
//! `npm run NAME` and `pnpm run NAME` only ever run a script (no script of
//! that name is an error), and npm has no fallback from an unknown command,
//! so they need no reading here; `npx` is always asked by its guard.
//! Upholds DESIGN.md section 6 (a program's own job is not an escape).

use std::io::Read;
use std::path::Path;

use super::grammar::Reading;
use super::types::Spec;
use crate::policy::guards::GuardHit;
use crate::policy::guards::parse::outside;

/// `npm run env` (any spelling of `run`) when package.json has no `env`
/// script: npm then runs its built-in `env` script, which prints every
/// environment variable, tokens and keys among them (npm 11). Found by the
/// H27 sweep; asked as `secrets.environment`, like `env` itself.
fn npm_env(program: &str, reading: &Reading<'_>, cwd: &Path) -> Option<GuardHit> {
    let sub = reading.sub?;
    if !sub.names.contains(&"run") || reading.operands.first() != Some(&"env") {
        return None;
    }
    let dir = match reading
        .uses
        .iter()
        .filter(|u| u.opt.names.contains(&"--prefix"))
        .filter_map(|u| u.value)
        .next_back()
    {
        Some(d) if outside(cwd, d) => return None,
        Some(d) => cwd.join(d),
        None => cwd.to_path_buf(),
    };
    let why = match scripts_of(&dir.join("package.json")) {
        Ok(scripts) if scripts.iter().any(|s| s == "env") => return None,
        Ok(_) => {
            "env is not a script in package.json, so npm runs its built-in env script".to_owned()
        }
        Err(problem) => format!("package.json {problem}, so npm may run its built-in env script"),
    };
    Some(GuardHit {
        id: crate::policy::secrets::ENVIRONMENT_ID,
        reason: format!(
            "{program} run env: {why}, which prints every environment variable, and the environment holds tokens and keys that would go back to the agent"
        ),
    })
}

/// The largest package.json read; a larger one is asked.
const MAX_PACKAGE_JSON: u64 = 1 << 20;

/// The hit for a yarn or pnpm reading that falls back from a script to a
/// program, as `program` (as invoked) in `cwd`; `None` for every other
/// reading.
pub(super) fn hit(
    spec: &Spec,
    program: &str,
    reading: &Reading<'_>,
    cwd: &Path,
) -> Option<GuardHit> {
    if reading.problem.is_some() {
        // The reading's own problem is asked; the command is not known.
        return None;
    }
    let sub = reading.sub?;
    let word = reading.sub_word?;
    if spec.family == "npm" {
        return npm_env(program, reading, cwd);
    }
    let (dir_options, explicit_run_falls_back): (&[&str], bool) = match spec.family {
        "yarn" => (&["--cwd"], true),
        "pnpm" => (&["--dir", "-C"], false),
        _ => return None,
    };
    if !sub.names.contains(&"run") {
        return None;
    }
    // `yarn build` is read as `yarn run build` with `build` as its first
    // operand; `yarn run build` has `run` as the word.
    let fallback = !sub.names.contains(&word);
    if !fallback && !explicit_run_falls_back {
        return None;
    }
    let name = *reading.operands.first()?;
    // The project directory the package manager reads (`--cwd`, `--dir`);
    // one outside the tree is asked by its own option's effect
    // (`OtherTree`), so nothing outside is read here.
    let dir = match reading
        .uses
        .iter()
        .filter(|u| u.opt.names.iter().any(|n| dir_options.contains(n)))
        .filter_map(|u| u.value)
        .next_back()
    {
        Some(d) if outside(cwd, d) => return None,
        Some(d) => cwd.join(d),
        None => cwd.to_path_buf(),
    };
    let shown = if fallback {
        format!("{program} {name}")
    } else {
        format!("{program} {word} {name}")
    };
    let fallback_to = match spec.family {
        "yarn" => "the binary of that name from node_modules/.bin, another program",
        _ => "it as a command from PATH (node_modules/.bin first), any program",
    };
    let why = match scripts_of(&dir.join("package.json")) {
        Ok(scripts) if scripts.iter().any(|s| s == name) => return None,
        Ok(_) => format!("{name} is not a script in package.json, so {program} runs {fallback_to}"),
        Err(problem) => format!(
            "package.json {problem}, so whether {program} runs a script or {fallback_to} is not known"
        ),
    };
    Some(GuardHit {
        id: spec.ids.runs_program,
        reason: format!("{shown}: {why}"),
    })
}

/// The script names of the package.json at `path`, or why it could not
/// be read (in words that follow "package.json").
fn scripts_of(path: &Path) -> Result<Vec<String>, &'static str> {
    let file = std::fs::File::open(path).map_err(|_| "cannot be read here")?;
    let mut text = String::new();
    file.take(MAX_PACKAGE_JSON + 1)
        .read_to_string(&mut text)
        .map_err(|_| "cannot be read as text")?;
    if text.len() as u64 > MAX_PACKAGE_JSON {
        return Err("is larger than 1 MiB");
    }
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|_| "is not JSON")?;
    let scripts = match value.get("scripts") {
        None => return Ok(Vec::new()),
        Some(serde_json::Value::Object(map)) => map,
        Some(_) => return Err("has a `scripts` field that is not an object"),
    };
    Ok(scripts
        .iter()
        .filter(|(_, v)| v.is_string())
        .map(|(k, _)| k.clone())
        .collect())
}
