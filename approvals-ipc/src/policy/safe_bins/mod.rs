//! Safe bins: stdin-only filters that may run without an allowlist entry.
//!
//! Decides whether the arguments of `head`, `cut`, `tr` … keep the command a
//! pure filter of stdin. It refuses file operands, path-like operands, glob
//! and expansion characters (also inside flag values; in a grep pattern and
//! a tr set, which are regexes and character sets, only expansion shapes:
//! `$NAME`, `${`, `$(`, backticks), unknown or
//! ambiguous flags, denied flags under any GNU abbreviation, a value given to
//! a flag that takes none, and jq filters that read the environment or load
//! modules. A bin without a profile is never safe. Upholds DESIGN.md section
//! 6 (Safe bins) and invariant 3, and closes openclaw.md classes 2, 5, 6, 7,
//! 19 and 20.

mod jq;
mod profiles;
mod trust;

#[cfg(test)]
mod tests;

pub use trust::{in_trusted_dir, trusted_dirs};

/// The bins that are safe by default when a policy names none: filters
/// that cannot read a file or run a program once their flags are checked.
pub const DEFAULT_SAFE_BINS: &[&str] = &["cut", "head", "tail", "tr", "uniq", "wc"];

/// The directories a safe bin may live in without configuration: system
/// directories an unprivileged process cannot write.
pub const DEFAULT_TRUSTED_DIRS: &[&str] = &["/bin", "/usr/bin"];

/// Characters refused in every argument: a shell would glob or expand them,
/// and a file name could become a flag (openclaw.md classes 2 and 20).
pub const FORBIDDEN_CHARS: &[char] = &['*', '?', '[', ']', '$', '`', '{', '}'];

/// Most positionals a custom profile may allow, so a typo cannot make a
/// profile accept an unbounded operand list.
const MAX_PROFILE_POSITIONALS: usize = 8;

/// What a bin may be given: counts of operands and the flags it knows.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SafeBinProfile {
    /// Fewest positional operands the bin needs (tr needs a set).
    pub min_positional: usize,
    /// Most positional operands; 0 for filters whose operands are files.
    pub max_positional: usize,
    /// Flags that take no value, `-x` or `--long`.
    pub allowed_flags: Vec<String>,
    /// Flags that take a value, attached, after `=`, or as the next token.
    pub allowed_value_flags: Vec<String>,
    /// Flags refused even though the bin knows them.
    pub denied_flags: Vec<String>,
}

/// Why a profile from the policy file was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SafeBinError {
    /// The bin name is empty or contains a path separator or whitespace.
    #[error("safe-bin profile name `{bin}` is not a bare executable name")]
    InvalidBinName {
        /// The name as written.
        bin: String,
    },
    /// The JSON does not have the profile's shape.
    #[error("safe-bin profile `{bin}`: {path}: {message}")]
    Json {
        /// The bin the profile is for.
        bin: String,
        /// Where in the profile the error is.
        path: String,
        /// What serde found.
        message: String,
    },
    /// A flag is not spelled `-x` or `--long-name`.
    #[error("safe-bin profile `{bin}`: flag `{flag}` is not `-x` or `--name`")]
    InvalidFlag {
        /// The bin the profile is for.
        bin: String,
        /// The flag as written.
        flag: String,
    },
    /// A flag appears twice, or in two lists.
    #[error("safe-bin profile `{bin}`: flag `{flag}` is listed more than once")]
    DuplicateFlag {
        /// The bin the profile is for.
        bin: String,
        /// The flag as written.
        flag: String,
    },
    /// The positional bounds are inverted or too large.
    #[error(
        "safe-bin profile `{bin}`: positional range {min}..={max} is invalid \
         (hint: minPositional <= maxPositional <= {MAX_PROFILE_POSITIONALS})"
    )]
    PositionalRange {
        /// The bin the profile is for.
        bin: String,
        /// `minPositional` as written.
        min: usize,
        /// `maxPositional` as written.
        max: usize,
    },
}

/// Why a safe-bin invocation is not a pure stdin filter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SafeBinRefusal {
    /// An argument holds a glob or expansion character.
    #[error("argument {index} `{arg}` contains a glob or expansion character")]
    GlobOrExpansion {
        /// Index into `argv[1..]`.
        index: usize,
        /// The argument.
        arg: String,
    },
    /// A positional looks like a path.
    #[error("argument {index} `{arg}` looks like a path")]
    PathLike {
        /// Index into `argv[1..]`.
        index: usize,
        /// The argument.
        arg: String,
    },
    /// A flag the profile denies, after abbreviation was resolved.
    #[error("flag `{flag}` is not allowed for a safe bin: {reason}")]
    DeniedFlag {
        /// The resolved flag.
        flag: String,
        /// Why it is denied.
        reason: String,
    },
    /// A flag the profile does not know.
    #[error("flag `{flag}` is not in the safe-bin profile")]
    UnknownFlag {
        /// The flag as written.
        flag: String,
    },
    /// A long-option prefix matching several flags.
    #[error("flag `{flag}` is ambiguous: {candidates:?}")]
    AmbiguousFlag {
        /// The prefix as written.
        flag: String,
        /// The flags it could mean.
        candidates: Vec<String>,
    },
    /// `--flag=value` for a flag that takes no value.
    #[error("flag `{flag}` takes no value")]
    UnexpectedValue {
        /// The resolved flag.
        flag: String,
    },
    /// A value flag at the end of argv.
    #[error("flag `{flag}` needs a value")]
    MissingValue {
        /// The resolved flag.
        flag: String,
    },
    /// Fewer operands than the profile needs.
    #[error("{found} operand(s) given, at least {min} needed")]
    TooFewPositionals {
        /// Operands given.
        found: usize,
        /// The profile's minimum.
        min: usize,
    },
    /// More operands than the profile allows (a file operand, usually).
    #[error("{found} operand(s) given, at most {max} allowed (safe bins read stdin only)")]
    TooManyPositionals {
        /// Operands given.
        found: usize,
        /// The profile's maximum.
        max: usize,
    },
    /// The jq filter may read beyond its input.
    #[error("{reason}")]
    JqFilter {
        /// Which identifier or construct.
        reason: String,
    },
}

impl SafeBinRefusal {
    /// A stable kebab-case code for logs, audit and tests.
    pub fn code(&self) -> &'static str {
        match self {
            Self::GlobOrExpansion { .. } => "glob-or-expansion",
            Self::PathLike { .. } => "path-like",
            Self::DeniedFlag { .. } => "denied-flag",
            Self::UnknownFlag { .. } => "unknown-flag",
            Self::AmbiguousFlag { .. } => "ambiguous-flag",
            Self::UnexpectedValue { .. } => "unexpected-value",
            Self::MissingValue { .. } => "missing-value",
            Self::TooFewPositionals { .. } => "too-few-positionals",
            Self::TooManyPositionals { .. } => "too-many-positionals",
            Self::JqFilter { .. } => "jq-filter",
        }
    }
}

/// The built-in profile of `bin` (cut, grep, head, jq, sort, tail, tr,
/// uniq, wc); `None` means the bin is never safe without a custom profile.
pub fn builtin_profile(bin: &str) -> Option<SafeBinProfile> {
    profiles::builtin(bin).map(|b| SafeBinProfile {
        min_positional: b.min_positional,
        max_positional: b.max_positional,
        allowed_flags: b.flags.iter().map(|f| (*f).to_owned()).collect(),
        allowed_value_flags: b.value_flags.iter().map(|f| (*f).to_owned()).collect(),
        denied_flags: b.denied.iter().map(|d| d.flag.to_owned()).collect(),
    })
}

/// Why `bin` has a built-in profile (what its operands are), for `explain`.
pub fn builtin_profile_reason(bin: &str) -> Option<&'static str> {
    profiles::builtin(bin).map(|b| b.reason)
}

/// Parses a custom profile (`safeBinProfiles.<bin>` in the policy) and
/// checks that every flag is well formed and listed once.
pub fn profile_from_json(bin: &str, v: &serde_json::Value) -> Result<SafeBinProfile, SafeBinError> {
    if bin.is_empty() || bin.contains(['/', '\\']) || bin.chars().any(char::is_whitespace) {
        return Err(SafeBinError::InvalidBinName {
            bin: bin.to_owned(),
        });
    }
    let profile: SafeBinProfile =
        serde_path_to_error::deserialize(v).map_err(|e| SafeBinError::Json {
            bin: bin.to_owned(),
            path: e.path().to_string(),
            message: e.inner().to_string(),
        })?;
    if profile.min_positional > profile.max_positional
        || profile.max_positional > MAX_PROFILE_POSITIONALS
    {
        return Err(SafeBinError::PositionalRange {
            bin: bin.to_owned(),
            min: profile.min_positional,
            max: profile.max_positional,
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    let all = profile
        .allowed_flags
        .iter()
        .chain(&profile.allowed_value_flags)
        .chain(&profile.denied_flags);
    for flag in all {
        if !well_formed_flag(flag) {
            return Err(SafeBinError::InvalidFlag {
                bin: bin.to_owned(),
                flag: flag.clone(),
            });
        }
        if !seen.insert(flag.as_str()) {
            return Err(SafeBinError::DuplicateFlag {
                bin: bin.to_owned(),
                flag: flag.clone(),
            });
        }
    }
    Ok(profile)
}

/// `-x` or `--name` with a name of letters, digits and inner dashes.
fn well_formed_flag(flag: &str) -> bool {
    if let Some(name) = flag.strip_prefix("--") {
        !name.is_empty()
            && !name.starts_with('-')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    } else if let Some(letter) = flag.strip_prefix('-') {
        let mut chars = letter.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_alphanumeric())
    } else {
        false
    }
}

/// Checks `args` (argv[1..]) of `bin` against `profile`. For a bin with a
/// built-in profile, the built-in denied flags and bin-specific gates apply
/// even when the policy supplied its own profile.
///
/// grep's first operand is its pattern unless `-e`/`--regexp` gave one (GNU
/// getopt permutes, so a later `-e` counts too); the pattern, `-e` values and
/// tr's sets are regexes or character sets, so glob characters are allowed
/// in them (`pattern_chars`). Every other operand counts against the
/// profile's maximum and must be a plain literal that is not path-like.
pub fn check_usage(
    bin: &str,
    profile: &SafeBinProfile,
    args: &[String],
) -> Result<(), SafeBinRefusal> {
    let flags = FlagSet::new(bin, profile);
    let mut positionals: Vec<usize> = Vec::new();
    let mut pattern_given = false;
    let mut last_option: Option<usize> = None;
    let mut options_done = false;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if options_done || arg == "-" || !arg.starts_with('-') {
            positionals.push(i);
            i += 1;
            continue;
        }
        last_option = Some(i);
        if !flags.has_pattern_values() {
            check_chars(i, arg)?;
        }
        let next = if arg == "--" {
            options_done = true;
            Step {
                next: i + 1,
                flag: None,
            }
        } else if let Some(body) = arg.strip_prefix("--") {
            flags.long_option(body, args, i)?
        } else if flags.numeric_shorthand && arg[1..].bytes().all(|b| b.is_ascii_digit()) {
            Step {
                next: i + 1,
                flag: None,
            }
        } else {
            flags.short_cluster(args, i)?
        };
        if next.flag.as_deref().is_some_and(|f| flags.gives_pattern(f)) {
            pattern_given = true;
        }
        i = next.next;
    }
    let mut files = positionals.as_slice();
    if let (Some(_), false, Some((&pattern, rest))) = (
        flags.pattern_operand,
        pattern_given,
        positionals.split_first(),
    ) {
        pattern_chars(pattern, &args[pattern])?;
        // A POSIX-correct grep (POSIXLY_CORRECT) stops at the pattern, so
        // an option after it would be a file operand.
        if last_option.is_some_and(|o| o > pattern) {
            return Err(SafeBinRefusal::TooManyPositionals {
                found: positionals.len() + 1,
                max: profile.max_positional + 1,
            });
        }
        files = rest;
    }
    for &index in files {
        check_positional(bin, index, &args[index])?;
    }
    let count = files.len();
    if count < profile.min_positional {
        return Err(SafeBinRefusal::TooFewPositionals {
            found: count,
            min: profile.min_positional,
        });
    }
    if count > profile.max_positional {
        return Err(SafeBinRefusal::TooManyPositionals {
            found: count,
            max: profile.max_positional,
        });
    }
    Ok(())
}

/// The jq filter goes through the jq gate; tr's sets may hold bracket and
/// glob characters; every other operand must be a literal that is neither a
/// path nor expandable.
fn check_positional(bin: &str, index: usize, arg: &str) -> Result<(), SafeBinRefusal> {
    if bin == "jq" {
        if let Some(reason) = jq::refusal(arg) {
            return Err(SafeBinRefusal::JqFilter { reason });
        }
    } else if profiles::SET_OPERANDS.iter().any(|(b, _)| *b == bin) {
        pattern_chars(index, arg)?;
    } else {
        check_chars(index, arg)?;
    }
    if path_like(arg) {
        return Err(SafeBinRefusal::PathLike {
            index,
            arg: arg.to_owned(),
        });
    }
    Ok(())
}

fn check_chars(index: usize, arg: &str) -> Result<(), SafeBinRefusal> {
    if arg.contains(FORBIDDEN_CHARS) {
        return Err(SafeBinRefusal::GlobOrExpansion {
            index,
            arg: arg.to_owned(),
        });
    }
    Ok(())
}

/// A regex or a character set: `* ? [ ] { }` are its own syntax, and a `$`
/// anchor (`foo$`) is allowed. Argv reaches the executor without a shell and
/// the analysis refused every unquoted glob and every expansion, so none of
/// these can expand; still, a backtick and an expansion-shaped `$NAME`,
/// `$1`, `${`, `$(`, `$$`, `$@`, `$*`, `$#`, `$?`, `$!` are refused, so the
/// class-2 and class-20 shapes never pass.
fn pattern_chars(index: usize, arg: &str) -> Result<(), SafeBinRefusal> {
    let expansion = arg.contains('`')
        || arg.as_bytes().windows(2).any(|w| {
            w[0] == b'$'
                && (w[1].is_ascii_alphanumeric()
                    || matches!(
                        w[1],
                        b'_' | b'{' | b'(' | b'$' | b'@' | b'*' | b'#' | b'?' | b'!'
                    ))
        });
    if expansion {
        return Err(SafeBinRefusal::GlobOrExpansion {
            index,
            arg: arg.to_owned(),
        });
    }
    Ok(())
}

/// `/x`, `~x`, `./x`, `../x`, `.\x`, `\\host`, `C:\x`: an operand that names a file.
fn path_like(arg: &str) -> bool {
    let b = arg.as_bytes();
    arg.starts_with(['/', '~'])
        || arg.starts_with("\\\\")
        || arg.starts_with("./")
        || arg.starts_with("../")
        || arg.starts_with(".\\")
        || arg.starts_with("..\\")
        || (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'\\' | b'/'))
}

/// A profile's flags, with the built-in denials of the bin merged in.
struct FlagSet<'a> {
    bin: &'a str,
    profile: &'a SafeBinProfile,
    builtin_denied: &'static [profiles::Denied],
    numeric_shorthand: bool,
    /// The flags that give grep its pattern, when the first operand is the
    /// pattern otherwise.
    pattern_operand: Option<&'static [&'static str]>,
}

/// Where parsing goes on after one option, and the value flag it resolved to.
struct Step {
    next: usize,
    flag: Option<String>,
}

enum Kind {
    Plain,
    Value,
}

impl<'a> FlagSet<'a> {
    fn new(bin: &'a str, profile: &'a SafeBinProfile) -> Self {
        Self {
            bin,
            profile,
            builtin_denied: profiles::builtin(bin).map_or(&[], |b| b.denied),
            numeric_shorthand: profiles::NUMERIC_SHORTHAND.iter().any(|(b, _)| *b == bin),
            pattern_operand: profiles::PATTERN_OPERAND
                .iter()
                .find(|(b, _, _)| *b == bin)
                .map(|(_, f, _)| *f),
        }
    }

    /// True when some flag of this bin takes a pattern as its value.
    fn has_pattern_values(&self) -> bool {
        profiles::PATTERN_VALUE_FLAGS
            .iter()
            .any(|(b, _, _)| *b == self.bin)
    }

    /// True when `flag`'s value is a pattern (grep `-e`).
    fn pattern_value(&self, flag: &str) -> bool {
        profiles::PATTERN_VALUE_FLAGS
            .iter()
            .any(|(b, f, _)| *b == self.bin && *f == flag)
    }

    /// True when `flag` gives the pattern, so the first operand is a file.
    fn gives_pattern(&self, flag: &str) -> bool {
        self.pattern_operand.is_some_and(|fs| fs.contains(&flag))
    }

    /// Checks one flag value: a pattern may hold regex characters.
    fn check_value(&self, flag: &str, index: usize, value: &str) -> Result<(), SafeBinRefusal> {
        if self.pattern_value(flag) {
            pattern_chars(index, value)
        } else {
            check_chars(index, value)
        }
    }

    /// Every long name any list knows, for abbreviation.
    fn long_names(&self) -> impl Iterator<Item = &str> {
        let p = self.profile;
        p.allowed_flags
            .iter()
            .chain(&p.allowed_value_flags)
            .chain(&p.denied_flags)
            .map(String::as_str)
            .chain(self.builtin_denied.iter().map(|d| d.flag))
            .filter_map(|f| f.strip_prefix("--"))
    }

    /// Denied, allowed plain, allowed with value, or unknown.
    fn classify(&self, flag: &str) -> Result<Kind, SafeBinRefusal> {
        if let Some(d) = self.builtin_denied.iter().find(|d| d.flag == flag) {
            return Err(SafeBinRefusal::DeniedFlag {
                flag: flag.to_owned(),
                reason: d.reason.to_owned(),
            });
        }
        let p = self.profile;
        if p.denied_flags.iter().any(|f| f == flag) {
            return Err(SafeBinRefusal::DeniedFlag {
                flag: flag.to_owned(),
                reason: "denied by the safe-bin profile".to_owned(),
            });
        }
        if p.allowed_value_flags.iter().any(|f| f == flag) {
            Ok(Kind::Value)
        } else if p.allowed_flags.iter().any(|f| f == flag) {
            Ok(Kind::Plain)
        } else {
            Err(SafeBinRefusal::UnknownFlag {
                flag: flag.to_owned(),
            })
        }
    }

    /// Resolves `--name` exactly, else as a unique GNU prefix.
    fn resolve_long(&self, name: &str) -> Result<String, SafeBinRefusal> {
        if self.long_names().any(|n| n == name) {
            return Ok(format!("--{name}"));
        }
        let mut candidates: Vec<String> = self
            .long_names()
            .filter(|n| !name.is_empty() && n.starts_with(name))
            .map(|n| format!("--{n}"))
            .collect();
        candidates.sort();
        candidates.dedup();
        match candidates.len() {
            0 => Err(SafeBinRefusal::UnknownFlag {
                flag: format!("--{name}"),
            }),
            1 => Ok(candidates.remove(0)),
            _ => Err(SafeBinRefusal::AmbiguousFlag {
                flag: format!("--{name}"),
                candidates,
            }),
        }
    }

    /// How many tokens a value flag consumes (jq `--arg NAME VALUE` takes two).
    fn arity(&self, flag: &str) -> usize {
        if profiles::TWO_VALUE_FLAGS
            .iter()
            .any(|(b, f, _)| *b == self.bin && *f == flag)
        {
            2
        } else {
            1
        }
    }

    /// Checks `--body` at `args[i]`; returns where to go on and the flag.
    fn long_option(&self, body: &str, args: &[String], i: usize) -> Result<Step, SafeBinRefusal> {
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        check_chars(i, name)?;
        let flag = self.resolve_long(name)?;
        match self.classify(&flag)? {
            Kind::Plain if inline.is_some() => Err(SafeBinRefusal::UnexpectedValue { flag }),
            Kind::Plain => Ok(Step {
                next: i + 1,
                flag: None,
            }),
            Kind::Value => {
                let arity = self.arity(&flag);
                let next = match inline {
                    Some(value) if arity == 1 => {
                        self.check_value(&flag, i, value)?;
                        i + 1
                    }
                    Some(_) => return Err(SafeBinRefusal::UnexpectedValue { flag }),
                    None => self.take_values(&flag, args, i + 1, arity)?,
                };
                Ok(Step {
                    next,
                    flag: Some(flag),
                })
            }
        }
    }

    /// Checks a short cluster `-abc` at `args[i]` letter by letter.
    fn short_cluster(&self, args: &[String], i: usize) -> Result<Step, SafeBinRefusal> {
        let cluster = &args[i][1..];
        for (pos, letter) in cluster.char_indices() {
            let flag = format!("-{letter}");
            if FORBIDDEN_CHARS.contains(&letter) {
                return Err(SafeBinRefusal::GlobOrExpansion {
                    index: i,
                    arg: args[i].clone(),
                });
            }
            match self.classify(&flag)? {
                Kind::Plain => {}
                Kind::Value => {
                    let rest = &cluster[pos + letter.len_utf8()..];
                    let next = if rest.is_empty() {
                        self.take_values(&flag, args, i + 1, self.arity(&flag))?
                    } else {
                        // The rest of the cluster is the value.
                        self.check_value(&flag, i, rest)?;
                        i + 1
                    };
                    return Ok(Step {
                        next,
                        flag: Some(flag),
                    });
                }
            }
        }
        Ok(Step {
            next: i + 1,
            flag: None,
        })
    }

    /// Consumes `arity` value tokens from `args[start..]`, checking each.
    fn take_values(
        &self,
        flag: &str,
        args: &[String],
        start: usize,
        arity: usize,
    ) -> Result<usize, SafeBinRefusal> {
        for k in 0..arity {
            let idx = start + k;
            let value = args.get(idx).ok_or_else(|| SafeBinRefusal::MissingValue {
                flag: flag.to_owned(),
            })?;
            self.check_value(flag, idx, value)?;
        }
        Ok(start + arity)
    }
}
