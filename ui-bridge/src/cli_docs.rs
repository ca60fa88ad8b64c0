//! Shell completions and man pages, generated from a binary's own clap
//! command, so they cannot say something the command line does not.
//!
//! Both binaries use it for `completions SHELL` and `man --out DIR`. The
//! committed copies (`docs/man/`, `contrib/completions/`) are checked
//! against freshly generated ones by `tests/tests/cli_docs.rs`, which names
//! the command that regenerates them.
//!
//! Pages are rendered with the crate version only (no git commit, no
//! date), so the committed pages change only when the command line does.

use std::io;
use std::path::{Path, PathBuf};

/// The shells completions can be generated for.
pub use clap_complete::Shell;

/// One man page per command: `NAME.1` for the top, `NAME-SUB.1` for each
/// subcommand (recursively), as `(file name, roff bytes)`.
pub fn man_pages(cmd: clap::Command) -> io::Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = cmd.version(env!("CARGO_PKG_VERSION"));
    cmd.build();
    let mut pages = Vec::new();
    collect(&cmd, cmd.get_name().to_owned(), &mut pages)?;
    Ok(pages)
}

fn collect(
    cmd: &clap::Command,
    name: String,
    pages: &mut Vec<(String, Vec<u8>)>,
) -> io::Result<()> {
    // clap names are `&'static str` without its `string` feature; a few
    // short strings leaked once per `man` run are the cheaper price.
    let page_cmd = cmd.clone().name(&*name.clone().leak());
    let mut bytes = Vec::new();
    clap_mangen::Man::new(page_cmd).render(&mut bytes)?;
    pages.push((format!("{name}.1"), bytes));
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        collect(sub, format!("{name}-{}", sub.get_name()), pages)?;
    }
    Ok(())
}

/// Writes [`man_pages`] into `dir` (created when missing) and returns the
/// paths written.
pub fn write_man_pages(cmd: clap::Command, dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for (name, bytes) in man_pages(cmd)? {
        let path = dir.join(name);
        std::fs::write(&path, bytes)?;
        written.push(path);
    }
    Ok(written)
}

/// The completion script for `shell`.
pub fn completions(cmd: clap::Command, shell: Shell) -> Vec<u8> {
    let mut cmd = cmd;
    let name = cmd.get_name().to_owned();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut out);
    out
}
