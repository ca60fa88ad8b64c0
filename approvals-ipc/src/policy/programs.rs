//! The programs the policy engine treats specially, as one table: shells,
//! interpreters, transparent and semantic wrappers, multi-call binaries, and
//! the shell builtins our executor refuses or models.
//!
//! Every other module asks here instead of keeping its own list, so a shell
//! the analysis unwraps is also a shell that allow-always never persists by
//! path (DESIGN.md invariant 5), and an interpreter the risk rules know is
//! one the decision knows. Names are matched through one rule, [`program`]:
//! `python3.12`, `Python3`, `python.exe` are all `python`. Lookups that
//! make a command *stricter* (is this code-running? is this a semantic
//! wrapper?) match by family; lookups that *see through* a word (unwrap a
//! shell or a transparent wrapper) use [`program_exact`], so an unusual
//! spelling is never unwrapped, only refused or asked.

pub mod builtins;
mod table;

#[cfg(test)]
mod tests;

use std::borrow::Cow;

pub use builtins::{BUILTINS, Builtin, BuiltinHandling};
pub use table::PROGRAMS;

/// Why a program is special. A row may have several kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A shell whose `-c` script the analysis parses with a POSIX/bash
    /// grammar (`sh`, `bash` …).
    PosixShell,
    /// A shell whose language the analysis does not parse (`fish`, `csh` …).
    OtherShell,
    /// Runs code it is given as an argument, a file or stdin.
    Interpreter,
    /// With no program named (or `-`), runs what it reads on stdin as code,
    /// so a download piped into it runs the download.
    CodeOnStdin,
    /// A dispatch wrapper that does not change what runs; unwrapped so its
    /// target is checked.
    TransparentWrapper,
    /// A wrapper that changes what runs or how; never auto-allowed.
    SemanticWrapper,
    /// One binary that acts as many programs, chosen by the name it was
    /// invoked by (or by a `+toolchain` argument).
    MultiCall,
    /// Runs the applet named by its first operand (`busybox sh`).
    AppletRunner,
    /// rustup or one of its proxies (`cargo`, `rustc` …): a first argument
    /// `+toolchain` only selects the toolchain, so the arguments after it
    /// are read as if it were not there (guards see `cargo +nightly
    /// --config …` as `cargo --config …`). Always with `MultiCall`.
    RustupProxy,
    /// Runs the command with another user's privileges, usually root's
    /// (`sudo`); the risk rules rate any use high.
    Privileged,
}

/// One program the engine has special knowledge of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program {
    /// The normalized name: lowercase, no `.exe`, no version suffix
    /// unless the digits are part of the name (`run0`). Invariant:
    /// `program(name)` finds this row (tested).
    pub name: &'static str,
    /// Every kind the program has; never empty (tested).
    pub kinds: &'static [Kind],
    /// For shells and wrappers: the short options that take a separate
    /// value, so the risk rules and salvage can read through the wrapper to
    /// the command it runs (`sudo -u root rm …` runs `rm …`). Empty when
    /// none or not known; a crude reading then only sees less.
    pub value_shorts: &'static str,
    /// Why it is special, in words a reviewer can check.
    pub reason: &'static str,
}

impl Program {
    /// Whether this program has `kind`.
    pub fn is(&self, kind: Kind) -> bool {
        self.kinds.contains(&kind)
    }

    /// Whether this program is a shell of either kind.
    pub fn is_shell(&self) -> bool {
        self.is(Kind::PosixShell) || self.is(Kind::OtherShell)
    }

    /// Whether this program is a wrapper of either kind.
    pub fn is_wrapper(&self) -> bool {
        self.is(Kind::TransparentWrapper) || self.is(Kind::SemanticWrapper)
    }
}

/// The name an executable goes by: its basename without a trailing `.exe`
/// (any case), the first step of [`family`]. Windows runs `git.exe` as
/// `git`; a policy that only knew `git` must not miss it.
pub fn executable_name(name: &str) -> &str {
    let name = match name.as_bytes().iter().rposition(|&b| b == b'/') {
        Some(slash) => &name[slash + 1..],
        None => name,
    };
    match name.len().checked_sub(4) {
        Some(cut) if name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(".exe") => {
            &name[..cut]
        }
        _ => name,
    }
}

/// The family a program name belongs to: the [`executable_name`], without
/// trailing version digits and dots (`python3.12` is `python`, `pypy3` is
/// `pypy`, `ksh93` is `ksh`), ASCII letters lowercased (case-insensitive
/// file systems run `Python` as `python`).
pub fn family(name: &str) -> Cow<'_, str> {
    lowercase(executable_name(name).trim_end_matches(|c: char| c.is_ascii_digit() || c == '.'))
}

/// The row for `name`, the one name-matching rule, for checks that only
/// make a command stricter: the lowercased [`executable_name`] if a row has
/// it (`run0`), else its [`family`] (`python3.12` is `python`).
pub fn program(name: &str) -> Option<&'static Program> {
    // One evaluation asks for the same name from the wrappers, the risk
    // rules, the guards and the decision: the last answer is kept. The
    // lookup is a pure function of the name's bytes, compared in full.
    if let Some(row) = LAST_LOOKUP.with(|last| last.get().answer(name)) {
        return row;
    }
    let row = program_uncached(name);
    LAST_LOOKUP.with(|last| last.set(Lookup::of(name, row)));
    row
}

thread_local! {
    /// The last name [`program`] was asked on this thread, and its row.
    static LAST_LOOKUP: std::cell::Cell<Lookup> = const { std::cell::Cell::new(Lookup::EMPTY) };
}

/// A name of at most [`Lookup::CAPACITY`] bytes, inline, with its row.
#[derive(Clone, Copy)]
struct Lookup {
    name: [u8; Lookup::CAPACITY],
    /// How many bytes of `name` are used; more than `CAPACITY` for none.
    len: usize,
    row: Option<&'static Program>,
}

impl Lookup {
    const CAPACITY: usize = 32;
    const EMPTY: Lookup = Lookup {
        name: [0; Lookup::CAPACITY],
        len: usize::MAX,
        row: None,
    };

    /// Remembers `row` as the answer for `name` (a longer name is not kept).
    fn of(name: &str, row: Option<&'static Program>) -> Lookup {
        let mut kept = Lookup::EMPTY;
        if let Some(slot) = kept.name.get_mut(..name.len()) {
            slot.copy_from_slice(name.as_bytes());
            kept.len = name.len();
            kept.row = row;
        }
        kept
    }

    /// The row kept for exactly `name`, if this is its lookup.
    fn answer(&self, name: &str) -> Option<Option<&'static Program>> {
        (self.name.get(..self.len) == Some(name.as_bytes())).then_some(self.row)
    }
}

fn program_uncached(name: &str) -> Option<&'static Program> {
    let exact = lowercase(executable_name(name));
    if let Some(program) = program_exact(&exact) {
        return Some(program);
    }
    // Most names (`git`, `ls`) are their own family: one lookup is enough.
    // (Mutants of this test survive: it only skips a lookup that would miss.)
    let versioned = exact.ends_with(|c: char| c.is_ascii_digit() || c == '.');
    if versioned && let Some(program) = program_exact(&family(name)) {
        return Some(program);
    }
    if versioned || (exact.contains('-') && exact.contains(MULTIARCH)) {
        return debian_base(name).and_then(|base| program_exact(&base));
    }
    exact.starts_with("git-").then_some(&GIT_DASHED)
}

/// Any `git-NAME` executable run by its own name (`git-upload-pack ../x`,
/// `git-remote-ext x 'sh -c id'`, `git-submodule foreach CMD`): git's
/// helpers and dashed commands, which the git spec reads only as `git
/// NAME`, and third-party git tools. Found by the H27 sweep (issue 11
/// class 7): each was auto-allowed under a broad allowlist while its `git
/// NAME` spelling was asked.
pub static GIT_DASHED: Program = Program {
    name: "git-",
    kinds: &[Kind::SemanticWrapper],
    value_shorts: "",
    reason: "a git command or helper run by its dashed name (`git-upload-pack`, `git-remote-ext`), which nothing reads as the git command it is; it can run or serve what `git NAME` would",
};

/// The part of a GNU multiarch triplet every one holds (`x86_64-linux-gnu`,
/// `arm-linux-gnueabihf`).
const MULTIARCH: &str = "-linux-gnu";

/// The program a Debian or Ubuntu name installs under another spelling,
/// when it is one: without a multiarch triplet before or after it
/// (`x86_64-linux-gnu-gcc`, `cpan5.36-x86_64-linux-gnu`), without a
/// `-VERSION` suffix (`gcc-12`, `clang-14`, `ld.lld-14`) and without a
/// dotted version (`gem3.1`, `irb3.1`, `pydoc3.11`). `None` when the name
/// is already plain. Undotted digits stay (`bzip2`, `c99`, `awk2` are not
/// versions), so only names a distribution gives to a versioned copy of a
/// program are read as that program: stricter, never looser, wherever a
/// table is consulted by name.
pub fn debian_base(name: &str) -> Option<String> {
    let exact = lowercase(executable_name(name));
    // Every spelling above holds a `-` (a triplet, a `-VERSION`) or a `.`
    // (a dotted version): most names (`cat`, `git`) are plain, and this is
    // asked of each on every evaluation.
    if !exact.bytes().any(|b| b == b'-' || b == b'.') {
        return None;
    }
    let mut base: &str = &exact;
    if let Some(at) = base.find(MULTIARCH) {
        match base[..at].rfind('-') {
            // `cpan5.36-x86_64-linux-gnu`: the triplet ends the name.
            Some(dash) => base = &base[..dash],
            // `x86_64-linux-gnu-gcc-12`: the triplet starts it.
            None => {
                let rest = &base[at + MULTIARCH.len()..];
                base = rest.find('-').map_or("", |dash| &rest[dash + 1..]);
            }
        }
    }
    if let Some((head, version)) = base.rsplit_once('-')
        && !head.is_empty()
        && !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        base = head;
    }
    let plain = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if !plain.is_empty() && base[plain.len()..].contains('.') {
        base = plain;
    }
    (!base.is_empty() && base != exact).then(|| base.to_owned())
}

fn lowercase(name: &str) -> Cow<'_, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}

/// The row whose name is exactly `name`, for checks that see through a
/// word: an unusual spelling must not be unwrapped.
pub fn program_exact(name: &str) -> Option<&'static Program> {
    INDEX.get(name).copied()
}

/// The table by name, built once: a lookup is one hash, not a binary search
/// of string comparisons (the policy looks names up several times per
/// segment, and most are not in the table).
static INDEX: std::sync::LazyLock<foldhash::HashMap<&'static str, &'static Program>> =
    std::sync::LazyLock::new(|| PROGRAMS.iter().map(|p| (p.name, p)).collect());

/// Whether `name` (by family) has `kind`.
pub fn has(name: &str, kind: Kind) -> bool {
    program(name).is_some_and(|p| p.is(kind))
}

/// The arguments of `name` with a leading `+toolchain` removed when `name`
/// is rustup or a rustup proxy (by family): the toolchain selector is
/// inert and must not hide the subcommand or options after it.
pub fn without_toolchain<'a, S: AsRef<str>>(name: &str, args: &'a [S]) -> &'a [S] {
    match args.split_first() {
        Some((first, rest)) if first.as_ref().starts_with('+') && has(name, Kind::RustupProxy) => {
            rest
        }
        _ => args,
    }
}

/// Whether `name` is a shell of any kind, by family.
pub fn is_shell(name: &str) -> bool {
    program(name).is_some_and(Program::is_shell)
}

/// Whether `name` is an interpreter, by family; allow-always never persists
/// one by path (invariant 5).
pub fn is_interpreter(name: &str) -> bool {
    has(name, Kind::Interpreter)
}

/// Whether `name` is a transparent or semantic wrapper, by family.
pub fn is_wrapper(name: &str) -> bool {
    program(name).is_some_and(Program::is_wrapper)
}

/// The row of a shell or wrapper that the risk rules and salvage read
/// through, by family: a POSIX shell (for `sh -c 'a b'` split into words),
/// a transparent or semantic wrapper.
pub fn looked_through(name: &str) -> Option<&'static Program> {
    program(name).filter(|p| p.is(Kind::PosixShell) || p.is_wrapper())
}

/// Whether `name` runs code other than its own: a shell, an interpreter or
/// a wrapper. Allow-always persists such a program only as an exact command
/// (DESIGN.md invariant 5).
pub fn runs_other_code(name: &str) -> bool {
    program(name).is_some_and(|p| p.is_shell() || p.is_wrapper() || p.is(Kind::Interpreter))
}
