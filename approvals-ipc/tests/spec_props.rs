//! Properties of the program specs over argvs generated from the specs'
//! own rows (DESIGN.md section 6, Program specs): however an option is
//! spelled (any unambiguous abbreviation where the program's parser takes
//! one, short options bundled, values attached or separate) and wherever it
//! stands among operands the program lets it stand, a use whose effect is
//! asked is asked, and argvs made only of inert uses ask nothing. Every
//! prefix of a long option that more than one row shares is asked, never
//! resolved to one of them. Programs with subcommands (cargo, pip, docker, go) are called
//! once per subcommand, options before and after it.

use std::path::Path;
use std::sync::LazyLock;

use approvals_ipc::policy::specs::{
    self, Arity, CodeIn, Effect, FileRef, Grammar, Keys, Operands, Opt, Spec, Sub, grammar,
};
use proptest::prelude::*;

const CWD: &str = "/work/project";

/// A small deterministic generator driven by proptest's seed, so one seed
/// is one argv and a failure prints the argv it made.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One way to call a program that the generator can write: the spec, a
/// view of the options before any subcommand, and the subcommand with a
/// view of its options (views are specs without subcommands, for spelling).
#[derive(Clone, Copy)]
struct Target {
    spec: &'static Spec,
    global: &'static Spec,
    sub: Option<(&'static Sub, &'static Spec)>,
    /// The subcommand groups before `sub`, outermost first (`gh pr` of
    /// `gh pr view`).
    parents: &'static [&'static Sub],
}

fn view(spec: &'static Spec, opts: &'static [&'static [Opt]]) -> &'static Spec {
    Box::leak(Box::new(Spec {
        opts,
        subs: &[],
        ..*spec
    }))
}

/// Every spec whose grammar the generator knows; a spec with subcommands
/// (clap's) once per subcommand. Skipped: `Grammar::Git`, `Grammar::Tar`
/// and `Grammar::Npm` (nopt: tested in `specs/npm_tests.rs` and against
/// npm itself in `npm_spec_conformance.rs`); `Grammar::Interpreter` (each interpreter's
/// own rules, options only before the script: tested in
/// `specs/interp_tests.rs` and against the interpreters in
/// `interp_spec_conformance.rs`); `Grammar::NextWordValues` (tree's own
/// parser: tested in `specs/everyday_tests.rs` and against tree in
/// `spec_conformance.rs`).
static TARGETS: LazyLock<Vec<Target>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for spec in specs::all().iter().copied() {
        let known = matches!(
            spec.grammar,
            Grammar::Getopt { .. }
                | Grammar::Clap
                | Grammar::Argparse { .. }
                | Grammar::Curl
                | Grammar::Ssh
                | Grammar::InfoZip { .. }
                | Grammar::GoFlag { .. }
        );
        if !known {
            continue;
        }
        if spec.subs.is_empty() {
            out.push(Target {
                spec,
                global: spec,
                sub: None,
                parents: &[],
            });
        } else if matches!(
            spec.grammar,
            Grammar::Clap | Grammar::Getopt { .. } | Grammar::GoFlag { .. }
        ) {
            let global = view(spec, spec.opts);
            // Every subcommand, nested ones (`gh pr view`) under their groups.
            let mut pending: Vec<(Vec<&'static Sub>, &'static Sub)> =
                spec.subs.iter().map(|s| (Vec::new(), s)).collect();
            while let Some((parents, sub)) = pending.pop() {
                if sub.subs.is_empty() {
                    out.push(Target {
                        spec,
                        global,
                        sub: Some((sub, view(spec, sub.opts))),
                        parents: Box::leak(parents.into_boxed_slice()),
                    });
                    continue;
                }
                for child in sub.subs {
                    let mut path = parents.clone();
                    path.push(sub);
                    pending.push((path, child));
                }
            }
        }
    }
    out
});

/// Every view of options the targets spell from.
fn views() -> Vec<&'static Spec> {
    let mut out: Vec<&'static Spec> = Vec::new();
    for t in TARGETS.iter() {
        if !out.iter().any(|v| std::ptr::eq(*v, t.global)) {
            out.push(t.global);
        }
        if let Some((_, v)) = t.sub {
            out.push(v);
        }
    }
    out
}

/// The argv of `global` uses (before the subcommand) and `local` ones
/// (after it) for `t`.
fn target_argv(
    rng: &mut Rng,
    t: &Target,
    global: &[(&'static Opt, Option<&'static str>)],
    local: &[(&'static Opt, Option<&'static str>)],
) -> Vec<String> {
    let Some((sub, sub_view)) = t.sub else {
        let all: Vec<_> = global.iter().chain(local).copied().collect();
        return argv(rng, t.spec, &all);
    };
    // Before the subcommand: options only (clap stops at the first operand).
    let pieces = global
        .iter()
        .map(|(row, value)| spell(rng, t.global, row, *value))
        .collect();
    let mut out: Vec<String> = bundle(rng, t.global, pieces)
        .into_iter()
        .flatten()
        .collect();
    for parent in t.parents {
        out.push((*rng.pick(parent.names)).to_owned());
    }
    out.push((*rng.pick(sub.names)).to_owned());
    out.extend(argv_in(rng, sub_view, local, sub.operand_ends_options));
    out
}

fn rows(spec: &'static Spec) -> Vec<&'static Opt> {
    spec.opts.iter().flat_map(|t| t.iter()).collect()
}

/// The id a dangerous use of `effect` must trip.
fn id_of(spec: &Spec, effect: Effect) -> Option<&'static str> {
    let ids = &spec.ids;
    Some(match effect {
        // A mode changes how operands are judged (`specs/operands_tests.rs`).
        Effect::Inert
        | Effect::ReadsFile
        | Effect::Network
        | Effect::Mode(_)
        | Effect::PrintsInstead(_) => return None,
        Effect::WritesFile(_) | Effect::FormatWrites(_) | Effect::ReportDest(..) => ids.writes_file,
        Effect::RunsProgram(_) => ids.runs_program,
        Effect::LoadsCode(_) | Effect::LoadsCodeIf(..) | Effect::ReadsNames(_) => ids.loads_code,
        Effect::Uploads(_) | Effect::UploadsIf(..) => ids.uploads,
        Effect::SetsConfig(_) | Effect::SetsConfigKey(..) | Effect::SetsConfigUnless(..) => {
            ids.sets_config
        }
        Effect::OtherTree(_) => ids.other_tree,
        Effect::FileOrRemote(_) => ids.runs_program,
        Effect::RunsProgramAtPath(_) => ids.runs_program,
        Effect::Installs(..) => ids.loads_code,
        Effect::Mounts(_) => ids.other_tree,
        Effect::AskedWhen(..) => ids.runs_program,
        Effect::PrintsEnv(_) | Effect::CopiesEnv(_) => {
            approvals_ipc::policy::secrets::ENVIRONMENT_ID
        }
        Effect::LoadsFromOutside(_) | Effect::FilterRule(_) => ids.loads_code,
    })
}

/// A value that makes a use of `opt` asked, and whether the option must be
/// given one (`None`: use it bare). `Err` when no use of it is asked.
fn dangerous_value(opt: &Opt) -> Result<Option<&'static str>, ()> {
    let value = match opt.effect {
        Effect::Inert
        | Effect::ReadsFile
        | Effect::Network
        | Effect::Mode(_)
        | Effect::PrintsInstead(_) => return Err(()),
        Effect::WritesFile(_) => "/tmp/elsewhere",
        Effect::FormatWrites(_) => "%output{/tmp/elsewhere}",
        Effect::ReportDest(..) => "html:/tmp/elsewhere",
        Effect::OtherTree(_) => "/tmp",
        Effect::FileOrRemote(_) => "backup@host:/tmp/a.tar",
        Effect::RunsProgramAtPath(_) => "./python",
        Effect::LoadsCodeIf(CodeIn::PluginUnlessNo, _) => "evil_plugin",
        Effect::LoadsCodeIf(CodeIn::WarningCategory, _) => "error::evil.Warning",
        Effect::Installs(..) => "git+https://example.com/x@v1",
        Effect::Mounts(_) => "/:/host",
        Effect::AskedWhen(words, _) => words.first().copied().ok_or(())?,
        Effect::PrintsEnv(_) => "v1",
        Effect::CopiesEnv(_) => "GITHUB_TOKEN",
        Effect::LoadsFromOutside(_) => "/tmp/elsewhere",
        Effect::FilterRule(_) => "merge /tmp/elsewhere",
        Effect::UploadsIf(FileRef::AtStart, _) => "@/etc/passwd",
        Effect::UploadsIf(FileRef::AtOrLtAnywhere, _) => "f=@/etc/passwd",
        Effect::SetsConfigKey(Keys::Ssh, _) => "ProxyCommand=sh -c id",
        Effect::SetsConfigKey(Keys::Git, _) => "core.pager=sh",
        Effect::ReadsNames(_) => "list",
        Effect::RunsProgram(_)
        | Effect::LoadsCode(_)
        | Effect::Uploads(_)
        | Effect::SetsConfig(_)
        | Effect::SetsConfigUnless(..) => "sh -c id",
    };
    Ok(match opt.arity {
        Arity::Flag => None,
        Arity::Required | Arity::Optional => Some(value),
        // Two-word options (jq's `--arg NAME VALUE`) are inert; none asks.
        Arity::Pair => return Err(()),
    })
}

/// A value that keeps a use of `opt` inert; `Err` when every use asks.
/// For an optional value, `Some` is attached and `None` would be bare.
fn benign_value(opt: &Opt) -> Result<Option<&'static str>, ()> {
    let value = match opt.effect {
        Effect::Inert
        | Effect::ReadsFile
        | Effect::Network
        | Effect::Mode(_)
        | Effect::PrintsInstead(_) => "v1",
        Effect::WritesFile(_) => "out.txt",
        Effect::FormatWrites(_) => "%{http_code}",
        Effect::ReportDest(..) => "term-missing",
        Effect::SetsConfigUnless(known, _) => known.flags.first().copied().ok_or(())?,
        Effect::OtherTree(_) => "sub",
        Effect::FileOrRemote(_) => "a.tar",
        Effect::RunsProgramAtPath(_) => "3.12",
        Effect::LoadsCodeIf(CodeIn::PluginUnlessNo, _) => "no:cacheprovider",
        Effect::LoadsCodeIf(CodeIn::WarningCategory, _) => "error::DeprecationWarning",
        Effect::Installs(..) => "lodash",
        Effect::Mounts(_) => "data:/data",
        Effect::AskedWhen(..) => "v1",
        Effect::UploadsIf(..) => "a=1",
        Effect::CopiesEnv(_) => "RUST_LOG=debug",
        Effect::LoadsFromOutside(_) => "x86_64-unknown-linux-musl",
        Effect::FilterRule(_) => "- *.o",
        Effect::SetsConfigKey(Keys::Ssh, _) => "Port=22",
        Effect::SetsConfigKey(Keys::Git, _) => "user.name=x",
        _ => return Err(()),
    };
    match (opt.arity, opt.effect) {
        // The generator writes one value per option.
        (Arity::Pair, _) => Err(()),
        (
            Arity::Flag,
            Effect::Inert | Effect::ReadsFile | Effect::Network | Effect::PrintsInstead(_),
        ) => Ok(None),
        (Arity::Flag, _) => Err(()),
        _ => Ok(Some(value)),
    }
}

/// Whether `--p` reads as `row` in `spec`'s grammar: an exact name wins,
/// else (where the parser abbreviates) the only row with a name `p`
/// starts.
fn resolves_to(spec: &'static Spec, p: &str, row: &'static Opt) -> bool {
    let longs: Vec<(&'static Opt, &str)> = rows(spec)
        .into_iter()
        .flat_map(|o| {
            o.names
                .iter()
                .filter_map(move |n| n.strip_prefix("--").map(|l| (o, l)))
        })
        .collect();
    if let Some((o, _)) = longs.iter().find(|(_, l)| *l == p) {
        return o.same_row(row);
    }
    if !matches!(
        spec.grammar,
        Grammar::Getopt { .. } | Grammar::Curl | Grammar::InfoZip { zip: true }
    ) {
        return false;
    }
    if spec.grammar == Grammar::Curl && p.starts_with("no-") {
        return false;
    }
    let mut candidates = longs
        .iter()
        .filter(|(_, l)| l.starts_with(p))
        .map(|(o, _)| *o);
    let first = candidates.next();
    first.is_some_and(|f| f.same_row(row) && candidates.all(|o| o.same_row(f)))
}

/// One option use, before bundling: a short letter (with its value and
/// whether the value is attached, and whether letters may follow it: not
/// after an optional value, which would take them) or finished words.
enum Piece {
    Short(String, Option<(&'static str, bool)>, bool),
    Words(Vec<String>),
}

/// A random spelling of `row` with `value`.
fn spell(
    rng: &mut Rng,
    spec: &'static Spec,
    row: &'static Opt,
    value: Option<&'static str>,
) -> Piece {
    if matches!(spec.grammar, Grammar::GoFlag { .. }) {
        // One word per option, one or two dashes, exact.
        let name = &rng.pick(row.names)[1..];
        let dashes = if rng.coin() { "-" } else { "--" };
        return Piece::Words(match value {
            None => vec![format!("{dashes}{name}")],
            Some(v) if rng.coin() => vec![format!("{dashes}{name}={v}")],
            Some(v) => vec![format!("{dashes}{name}"), v.to_owned()],
        });
    }
    let digits = spec.grammar != Grammar::Curl;
    let info_zip = matches!(spec.grammar, Grammar::InfoZip { .. });
    let shorts: Vec<String> = row
        .names
        .iter()
        .filter(|n| n.len() == 2 || (info_zip && n.len() == 3 && !n.starts_with("--")))
        .map(|n| match &n[1..] {
            "#" if digits => char::from(b'0' + (rng.below(10) as u8)).to_string(),
            letters => letters.to_owned(),
        })
        .collect();
    let longs: Vec<&str> = row
        .names
        .iter()
        .filter_map(|n| n.strip_prefix("--"))
        .collect();
    let use_short = !shorts.is_empty() && (longs.is_empty() || rng.coin());
    if use_short {
        let letter = rng.pick(&shorts).clone();
        let last = letter.chars().last().unwrap_or('-');
        let value = value.map(|v| {
            // Info-ZIP reads the longest option first: `-s` then `v1` is
            // `-sv -1`, so such a value goes in its own word.
            let joins =
                letter.len() == 1 && v.chars().next().is_some_and(|f| two_letters(spec, last, f));
            let attached = row.arity == Arity::Optional || (!joins && rng.coin());
            (v, attached)
        });
        return Piece::Short(letter, value, row.arity == Arity::Flag);
    }
    let name = *rng.pick(&longs);
    let prefixes: Vec<&str> = (1..=name.len())
        .map(|k| &name[..k])
        .filter(|p| resolves_to(spec, p, row))
        .collect();
    let written = if prefixes.is_empty() {
        name
    } else {
        *rng.pick(&prefixes)
    };
    let mut words = Vec::new();
    match value {
        None => words.push(format!("--{written}")),
        Some(v) if row.arity == Arity::Optional => words.push(format!("--{written}={v}")),
        Some(v) if spec.grammar != Grammar::Curl && rng.coin() => {
            words.push(format!("--{written}={v}"));
        }
        Some(v) => {
            words.push(format!("--{written}"));
            words.push(v.to_owned());
        }
    }
    Piece::Words(words)
}

/// Whether `a` then `b` is one of Info-ZIP's two-letter options in `spec`.
fn two_letters(spec: &'static Spec, a: char, b: char) -> bool {
    matches!(spec.grammar, Grammar::InfoZip { .. })
        && rows(spec).iter().any(|o| {
            o.names
                .iter()
                .any(|n| n.len() == 3 && n.chars().skip(1).eq([a, b]))
        })
}

/// The pieces as argv groups, short flags randomly bundled with the short
/// option after them (never into a two-letter option of Info-ZIP's).
fn bundle(rng: &mut Rng, spec: &'static Spec, pieces: Vec<Piece>) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut open: Option<String> = None;
    for piece in pieces {
        match piece {
            Piece::Words(words) => {
                if let Some(cluster) = open.take() {
                    groups.push(vec![cluster]);
                }
                groups.push(words);
            }
            Piece::Short(letter, value, takes_more) => {
                let first = letter.chars().next().unwrap_or('-');
                let mut cluster = match open.take() {
                    Some(c)
                        if c.chars()
                            .last()
                            .is_some_and(|l| two_letters(spec, l, first)) =>
                    {
                        groups.push(vec![c]);
                        "-".to_owned()
                    }
                    Some(c) => c,
                    None => "-".to_owned(),
                };
                cluster.push_str(&letter);
                match value {
                    None if takes_more && rng.coin() => open = Some(cluster),
                    None => groups.push(vec![cluster]),
                    Some((v, true)) => groups.push(vec![format!("{cluster}{v}")]),
                    Some((v, false)) => groups.push(vec![cluster, v.to_owned()]),
                }
            }
        }
    }
    if let Some(cluster) = open {
        groups.push(vec![cluster]);
    }
    groups
}

/// An argv of `uses` (row and value) among `operands`, placed where the
/// program reads options.
fn argv(
    rng: &mut Rng,
    spec: &'static Spec,
    uses: &[(&'static Opt, Option<&'static str>)],
) -> Vec<String> {
    argv_in(rng, spec, uses, false)
}

/// [`argv`], with every operand after every option when `operands_last`
/// (a subcommand whose options end at its first operand, `docker run`).
fn argv_in(
    rng: &mut Rng,
    spec: &'static Spec,
    uses: &[(&'static Opt, Option<&'static str>)],
    operands_last: bool,
) -> Vec<String> {
    let mut order: Vec<usize> = (0..uses.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let pieces = order
        .iter()
        .map(|&i| spell(rng, spec, uses[i].0, uses[i].1))
        .collect();
    let groups = bundle(rng, spec, pieces);
    let operands = ["file.txt", "host:dst/", "https://example.com/x", "src"];
    let mut out = Vec::new();
    match spec.grammar {
        Grammar::Ssh => {
            // Options, the destination, more options, the command.
            let split = rng.below(groups.len() + 1);
            for g in &groups[..split] {
                out.extend(g.iter().cloned());
            }
            if split == groups.len() && rng.coin() {
                out.push("--".to_owned());
            }
            out.push("host".to_owned());
            for g in &groups[split..] {
                out.extend(g.iter().cloned());
            }
            for word in ["uptime", "-F", "cfg", "-oProxyCommand=sh"]
                .iter()
                .take(rng.below(5))
            {
                out.push((*word).to_owned());
            }
        }
        Grammar::Getopt { permute: false } | Grammar::GoFlag { .. } => {
            for g in &groups {
                out.extend(g.iter().cloned());
            }
            if rng.coin() {
                out.push("--".to_owned());
            }
            for _ in 0..rng.below(3) {
                out.push((*rng.pick(&operands)).to_owned());
            }
        }
        _ => {
            let mut slots: Vec<Vec<String>> = groups;
            for _ in 0..rng.below(3) {
                let at = if operands_last {
                    slots.len()
                } else {
                    rng.below(slots.len() + 1)
                };
                slots.insert(at, vec![(*rng.pick(&operands)).to_owned()]);
            }
            for g in slots {
                out.extend(g);
            }
            if rng.coin() {
                out.push("--".to_owned());
                out.push("-T".to_owned());
            }
        }
    }
    out
}

fn benign_uses(
    rng: &mut Rng,
    spec: &'static Spec,
    n: usize,
) -> Vec<(&'static Opt, Option<&'static str>)> {
    let benign: Vec<(&'static Opt, Option<&'static str>)> = rows(spec)
        .into_iter()
        .filter_map(|o| benign_value(o).ok().map(|v| (o, v)))
        .map(|(o, v)| {
            // An optional value may also be left out when that is inert.
            let bare_is_inert = matches!(
                o.effect,
                Effect::Inert | Effect::ReadsFile | Effect::Network
            );
            if o.arity == Arity::Optional && bare_is_inert && rng.coin() {
                (o, None)
            } else {
                (o, v)
            }
        })
        .collect();
    if benign.is_empty() {
        return Vec::new();
    }
    (0..n).map(|_| *rng.pick(&benign)).collect()
}

fn check(spec: &'static Spec, args: &[String]) -> Vec<&'static str> {
    specs::check(spec.names[0], args, Path::new(CWD))
        .expect("a spec'd program")
        .iter()
        .map(|h| h.id)
        .collect()
}

fn dangerous_rows(view: &'static Spec) -> Vec<(&'static Opt, Option<&'static str>)> {
    rows(view)
        .into_iter()
        .filter_map(|o| dangerous_value(o).ok().map(|v| (o, v)))
        .collect()
}

fn inert_sub(t: &Target) -> bool {
    // A subcommand that hands the words after `--` on (`gh repo clone`)
    // is not inert with operands after a `--`, which the generator writes.
    let inert = |sub: &Sub| {
        matches!(
            sub.effect,
            Effect::Inert | Effect::ReadsFile | Effect::Network
        ) && sub.passes == Effect::Inert
            // Package operands from a URL (which the generator writes)
            // are asked by design (`specs/install_tests.rs`).
            && !matches!(sub.operands, Operands::Installs(..))
            // A setting saved from an operand (`rustup default stable`)
            // is asked by design (`specs/everyday_tests.rs`).
            && !matches!(sub.operands, Operands::Saved(_))
    };
    t.sub.is_none_or(|(sub, _)| inert(sub)) && t.parents.iter().all(|p| inert(p))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Any use of an asked option, in any spelling, order and bundle, among
    /// inert options and operands, before or after the subcommand, trips
    /// that option's guard.
    #[test]
    fn an_asked_option_is_asked_however_it_is_written(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let targets: Vec<Target> = TARGETS
            .iter()
            .copied()
            .filter(|t| {
                !dangerous_rows(t.global).is_empty()
                    || t.sub.is_some_and(|(_, v)| !dangerous_rows(v).is_empty())
            })
            .collect();
        let t = *rng.pick(&targets);
        let mut candidates: Vec<(bool, &'static Opt, Option<&'static str>)> = dangerous_rows(t.global)
            .into_iter()
            .map(|(o, v)| (false, o, v))
            .collect();
        if let Some((_, v)) = t.sub {
            candidates.extend(dangerous_rows(v).into_iter().map(|(o, v)| (true, o, v)));
        }
        let (local, row, value) = *rng.pick(&candidates);
        let n = rng.below(4);
        let mut global = benign_uses(&mut rng, t.global, n);
        let mut after = match t.sub {
            Some((_, v)) => {
                let n = rng.below(4);
                benign_uses(&mut rng, v, n)
            }
            None => Vec::new(),
        };
        if local { after.push((row, value)) } else { global.push((row, value)) }
        let args = target_argv(&mut rng, &t, &global, &after);
        let want = id_of(t.spec, row.effect).expect("a dangerous effect has an id");
        let got = check(t.spec, &args);
        prop_assert!(got.contains(&want), "{} {:?}: want {want}, got {got:?}", t.spec.family, args);
    }

    /// Argvs made only of inert uses with benign values trip nothing.
    #[test]
    fn inert_options_with_benign_values_ask_nothing(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let targets: Vec<Target> = TARGETS.iter().copied().filter(inert_sub).collect();
        let t = *rng.pick(&targets);
        let n = rng.below(6);
        let global = benign_uses(&mut rng, t.global, n);
        let after = match t.sub {
            Some((_, v)) => {
                let n = rng.below(6);
                benign_uses(&mut rng, v, n)
            }
            None => Vec::new(),
        };
        let args = target_argv(&mut rng, &t, &global, &after);
        let mut got = check(t.spec, &args);
        if matches!(t.spec.operands, Operands::Archive { extracts_by_default: true, .. }) {
            // unzip extracts into the working directory itself unless told
            // otherwise: asked by design, whatever the options
            // (`specs/operands_tests.rs`).
            got.retain(|id| *id != t.spec.ids.writes_file);
        }
        match t.spec.operands {
            // dd's operands must be KEY=VALUE: the URLs and words this
            // test gives as operands are unknown ones, asked by design.
            Operands::Assignments { .. } => got.retain(|id| *id != t.spec.ids.unknown_option),
            // date sets the clock to an operand without `+`: asked by design.
            Operands::ChangesSystemUnless(..) => got.retain(|id| *id != t.spec.ids.sets_config),
            // env and printenv print the variables their operands name, or
            // all of them without one: asked by design unless each name
            // is known to hold no secret (`specs/everyday_tests.rs`).
            Operands::PrintsEnv => got.retain(|id| *id != "secrets.environment"),
            _ => {}
        }
        prop_assert!(got.is_empty(), "{} {:?}: got {got:?}", t.spec.family, args);
    }
}

/// Every prefix of every long option, exhaustively: one that more than one
/// row starts (and no row is named exactly) is asked as ambiguous and
/// resolved to no row; one that exactly one row starts resolves to it where
/// the parser abbreviates and is unknown where it does not.
#[test]
fn a_shared_prefix_is_never_resolved_to_one_of_its_rows() {
    let mut checked = 0;
    for spec in views() {
        let all = rows(spec);
        for row in &all {
            for name in row.names.iter().filter_map(|n| n.strip_prefix("--")) {
                for k in 1..=name.len() {
                    let p = &name[..k];
                    let word = format!("--{p}");
                    // Two values, for the options that take two words.
                    let args = vec![word.clone(), "v1".to_owned(), "v2".to_owned()];
                    let reading = grammar::read(spec, &args);
                    let exact = all
                        .iter()
                        .any(|o| o.names.iter().any(|n| n.strip_prefix("--") == Some(p)));
                    let mut owners: Vec<&Opt> = all
                        .iter()
                        .copied()
                        .filter(|o| {
                            o.names
                                .iter()
                                .any(|n| n.strip_prefix("--").is_some_and(|l| l.starts_with(p)))
                        })
                        .collect();
                    owners.dedup_by(|a, b| a.same_row(b));
                    let resolved = reading.uses.first().map(|u| u.opt);
                    if exact {
                        let owner = all
                            .iter()
                            .find(|o| o.names.iter().any(|n| n.strip_prefix("--") == Some(p)));
                        assert!(
                            resolved.is_some_and(|r| owner.is_some_and(|o| r.same_row(o))),
                            "{}: {word} is a name of its own",
                            spec.family
                        );
                    } else if owners.len() > 1 {
                        assert!(
                            matches!(
                                reading.problem,
                                Some(
                                    grammar::Problem::Ambiguous(..)
                                        | grammar::Problem::UnknownOption(_)
                                )
                            ),
                            "{}: {word} is shared by {} rows but read as {:?}",
                            spec.family,
                            owners.len(),
                            resolved.map(|r| r.names)
                        );
                        assert!(reading.uses.is_empty(), "{}: {word}", spec.family);
                    } else if resolves_to(spec, p, row) {
                        assert!(
                            resolved.is_some_and(|r| r.same_row(row)),
                            "{}: {word} abbreviates {:?}",
                            spec.family,
                            row.names
                        );
                    } else {
                        assert!(
                            reading.uses.is_empty(),
                            "{}: {word} is no option here",
                            spec.family
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} prefixes checked");
}

/// The generator reaches nested subcommands (`gh pr view`, `rustup
/// toolchain install`, `uv pip install`), so the properties cover them.
#[test]
fn the_generator_covers_nested_subcommands() {
    for family in ["gh", "rustup", "uv"] {
        let nested = TARGETS
            .iter()
            .filter(|t| t.spec.family == family && !t.parents.is_empty())
            .count();
        assert!(nested > 3, "{family}: {nested} nested subcommands");
    }
}
