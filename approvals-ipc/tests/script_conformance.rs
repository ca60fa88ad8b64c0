//! The sed and awk guards against the real programs (issue 11, class 5).
//!
//! For a corpus of scripts, the guard's answer ("fires") is compared with
//! what the real program does when asked to refuse the same constructs:
//!
//! - GNU `sed --sandbox` refuses `e`, `r`, `w` (and `s///e`, `s///w`, `R`,
//!   `W`) at compile time with "e/r/w commands disabled in sandbox mode".
//! - `gawk --sandbox` refuses `system()`, redirections, pipes, getline from
//!   files or commands, and extensions, when the statement runs; every
//!   dangerous construct in the corpus is reached on the one input line.
//! - `mawk -W dump` compiles without running and prints the code: a
//!   `system` instruction, or a negative `pushint` (a redirection kind)
//!   right before `print`, `printf` or `getline`, is a command, a pipe or a
//!   file.
//!
//! A missing program is reported with `eprintln!` and its test returns: it
//! never passes silently. Constructs the guard fires on by design although
//! the real program allows them (`ENVIRON`, changing `ARGV`, label readings
//! of other seds) are listed with why, and pinned: the guard must fire and
//! the program must run them. So are the ones it lets through although the
//! sandboxes refuse them: writing the program's own `/dev/stdout` or
//! `/dev/stderr`, no file.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use approvals_ipc::policy::guards::check;

const INPUT: &str = "a/b c 3\nx y 1001\n";

/// What the real program did with a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Real {
    /// Refused it as running, reading or writing (the sandbox message).
    Refused,
    /// Refused it for another reason (syntax, a missing label ...).
    Error,
    /// Ran it.
    Ran,
}

/// Runs `program args` in a temporary directory with `INPUT` on stdin;
/// `None` when the program is missing. Killed after 5 s (a loop ran).
fn run(program: &str, args: &[&str]) -> Option<(i32, String, String)> {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = match Command::new(program)
        .args(args)
        .current_dir(dir.path())
        .env("LC_ALL", "C")
        .env_remove("POSIXLY_CORRECT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("{program}: {e}"),
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(INPUT.as_bytes());
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

fn available(program: &str, version_args: &[&str]) -> bool {
    let ok = Command::new(program)
        .args(version_args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !ok {
        eprintln!("SKIPPED: `{program}` is not installed; this conformance test did not run");
    }
    ok
}

fn fires(program: &str, argv: &[&str], id: &str) -> bool {
    let argv: Vec<String> = argv.iter().map(|s| (*s).to_owned()).collect();
    check(program, &argv, Path::new("/tmp"), false)
        .iter()
        .any(|h| h.id == id)
}

// ---------------------------------------------------------------- sed

fn sed_real(script: &str) -> Option<Real> {
    let (_, _, err) = run("sed", &["--sandbox", "-e", script])?;
    Some(if err.contains("e/r/w commands disabled in sandbox mode") {
        Real::Refused
    } else if err.is_empty() {
        Real::Ran
    } else {
        Real::Error
    })
}

fn sed_fires(script: &str) -> bool {
    fires("sed", &["sed", "-e", script], "sed.script")
}

/// Everyday and tricky scripts GNU sed runs.
const SED_HARMLESS: &[&str] = &[
    "p",
    "1,5p",
    "s/a/b/g",
    "/^#/d",
    "s/x/y/",
    "$!N",
    ":a;N;$!ba;s/\\n/ /g",
    ":a;$!{N;ba};s/\\n/ /g",
    "y/abc/xyz/",
    "1i header",
    "$a footer",
    "1i\\\nheader",
    "a\\",
    "a foo; e id",
    "a foo \\\n e id",
    "i\\  w /etc/x",
    "c\\text",
    "/start/,/end/{s/x/y/;p}",
    "s/(a|b)/c/2;/^$/d",
    "s|a|b|g",
    "s,a,b,",
    "s;a;b;",
    "s a b g",
    "s\\b\\x\\",
    "s/[/]/x/",
    "s/[]/]/x/",
    "s/[^/]/x/",
    "s/[[:alpha:]/]/x/",
    "s/[[.-.]/]/x/",
    "s/a\\/b/c/",
    "s/a/\\n/",
    "s/a/b/ g",
    "s/a/b/3g",
    "s/a/b/gI",
    "s/a/b/mM",
    "s/a/b/p",
    "s/a/b/#c",
    "s/a/b/;p",
    "s/e/w/",
    "s/w/e/",
    "s/a/ w x/",
    "/w x/p",
    "\\,x,p",
    "\\%e%d",
    "/a/Ip",
    "/a/ I p",
    "/a/,/b/ !p",
    "1!G;h;$!d",
    "0,/a/d",
    "0~2p",
    "1~0p",
    "2,~4p",
    "2,+3p",
    "1 , 3 p",
    "$ p",
    "$=",
    "=",
    "l",
    "l 3",
    "l0",
    "q",
    "q5",
    "Q 3",
    "2q",
    "n;d",
    "N;P;D",
    "h;H;g;G;x",
    "z",
    "F",
    "v",
    "v 4.2",
    "#n\np",
    "# comment\np",
    "p # c",
    "p;;p",
    "{p}",
    "{p};p",
    "1{;p;}",
    "{:a}",
    ":a#x",
    ":x ; n ; b x",
    "b ; p",
    "b",
    "t",
    "T",
    "bend;:end",
    ":my-label\nb my-label",
    "{\np\n}",
];

/// Scripts GNU sed --sandbox refuses: the guard must fire on every one.
const SED_DANGEROUS: &[&str] = &[
    "e",
    "e id",
    "1e id",
    "$e echo hi",
    "/x/e date",
    "e\n",
    ":a e echo hi",
    ":a\te echo hi",
    "b end e id",
    "b e;e id",
    "s/a/b/e",
    "s/a/id/e",
    "s/a/b/ge",
    "s/a/b/eg",
    "s/a/b/ e",
    "s/a/b/pe",
    "s/a/b/w out",
    "s/a/b/gw out",
    "s/a/b/ w x",
    "s/[/]/x/w out",
    "s/a\\/b/c/w out",
    "w out",
    "W out",
    "/x/w out",
    "1,3W out",
    "r /etc/hostname",
    "0r /etc/hostname",
    "$r x",
    "R /etc/hostname",
    "r",
    "{w out\n}",
    "1{p;e id\n}",
    "p;w out",
    "a foo\ne id",
    "i\\\nfoo\ne id",
    "y/ab/cd/;e",
    "s/x/y/;w out",
    "#c\ne",
    "/a/I e id",
    "\\,a,e id",
    "1!e id",
    "$!N;e",
    "0,/x/e id",
    "2,~3w out",
    ":a;e id",
    "t x;r f",
    "v;e",
    "{};e",
];

/// Scripts GNU sed rejects as malformed: the guard fires on them too
/// ("not understood").
const SED_MALFORMED: &[&str] = &[
    "}e",
    "s/a/b/}",
    "{p",
    "p}",
    "s/a/b",
    "s/a/b/x",
    "s/a/b/gg",
    "s/a/b/0",
    "s/[/x/",
    "y/abc/xyz/ p",
    "1,2q",
    "0p",
    "1!!p",
    ":a}",
    "b a}",
    "1:a",
    ":",
    "1",
    "1,",
    "+1p",
    "k",
    "L",
    "a",
    "s\na\nb\n",
];

/// Malformed scripts the guard lets through because it does not check
/// what GNU sed checks after parsing (regex syntax, label targets, `y`
/// lengths): sed refuses them before running anything, so nothing runs.
const SED_MALFORMED_NOT_MODELLED: &[&str] = &["s/\\(/x/", "bx", "y/ab/c/"];

/// Scripts GNU sed runs but the guard fires on by design: another sed's
/// reading of a label finds a command GNU sed does not run.
const SED_FIRES_BY_DESIGN: &[(&str, &str)] = &[
    (
        ":x a foo\\\ne id",
        "BSD seds end the label at the newline, then run `e id`; GNU reads `a foo\\` text",
    ),
    (
        ":a#;e id",
        "a sed ending labels only at `;` runs `e id`; GNU reads `#;e id` as a comment",
    ),
    (
        ":a\u{3000}e id",
        "newer GNU sed ends the label at U+3000 and runs `e id`; 4.9 reads the command `i d`",
    ),
];

/// Scripts `sed --sandbox` refuses but the guard lets through by design:
/// GNU sed writes `/dev/stdout` and `/dev/stderr` to its own streams
/// without opening a file (a POSIX sed opens the process's own stream by
/// that name), so they write nothing the prompt does not show.
const SED_PASSES_BY_DESIGN: &[(&str, &str)] = &[
    (
        "s|a|b|w /dev/stdout",
        "the `w` flag writing sed's own stdout",
    ),
    ("w /dev/stdout", "the `w` command writing sed's own stdout"),
    (
        "/x/W /dev/stderr",
        "the `W` command writing sed's own stderr",
    ),
];

#[test]
fn sed_guard_agrees_with_gnu_sed_sandbox() {
    if !available("sed", &["--version"]) {
        return;
    }
    let mut disagreements = Vec::new();
    let (mut refused, mut ran) = (0, 0);
    let mut check_one = |script: &str, expected: Real, fires_expected: bool| {
        let real = sed_real(script).expect("sed is installed");
        let ours = sed_fires(script);
        match real {
            Real::Refused => refused += 1,
            Real::Ran => ran += 1,
            Real::Error => {}
        }
        if real != expected || ours != fires_expected {
            disagreements.push(format!(
                "{script:?}: sed {real:?} (listed {expected:?}), guard fires: {ours}"
            ));
        }
    };
    for script in SED_HARMLESS {
        check_one(script, Real::Ran, false);
    }
    for script in SED_DANGEROUS {
        check_one(script, Real::Refused, true);
    }
    for script in SED_MALFORMED {
        check_one(script, Real::Error, true);
    }
    for script in SED_MALFORMED_NOT_MODELLED {
        check_one(script, Real::Error, false);
    }
    for (script, _why) in SED_FIRES_BY_DESIGN {
        check_one(script, Real::Ran, true);
    }
    for (script, _why) in SED_PASSES_BY_DESIGN {
        check_one(script, Real::Refused, false);
    }
    eprintln!(
        "sed conformance: {} scripts ({} harmless, {} dangerous, {} malformed, {} fire by design, \
         {} pass by design); sed --sandbox refused {refused}, ran {ran}",
        SED_HARMLESS.len()
            + SED_DANGEROUS.len()
            + SED_MALFORMED.len()
            + SED_MALFORMED_NOT_MODELLED.len()
            + SED_FIRES_BY_DESIGN.len()
            + SED_PASSES_BY_DESIGN.len(),
        SED_HARMLESS.len(),
        SED_DANGEROUS.len(),
        SED_MALFORMED.len() + SED_MALFORMED_NOT_MODELLED.len(),
        SED_FIRES_BY_DESIGN.len(),
        SED_PASSES_BY_DESIGN.len(),
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

// ---------------------------------------------------------------- awk

fn gawk_real(program: &str) -> Option<Real> {
    let (_, _, err) = run("gawk", &["--sandbox", "--", program])?;
    Some(if err.contains("sandbox mode") {
        Real::Refused
    } else if err.is_empty() {
        Real::Ran
    } else {
        Real::Error
    })
}

/// mawk's compiled code, without running it: `Refused` when it calls
/// `system` or redirects `print`/`printf`/`getline` (a negative `pushint`
/// right before them is the redirection kind), `Ran` when it does neither.
fn mawk_real(program: &str) -> Option<Real> {
    let (code, out, err) = run("mawk", &["-W", "dump", "--", program])?;
    if code != 0 || !err.is_empty() {
        return Some(Real::Error);
    }
    let ops: Vec<(&str, &str)> = out
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t').skip(1);
            Some((f.next()?, f.next().unwrap_or("")))
        })
        .collect();
    let dangerous = ops.iter().enumerate().any(|(k, (op, _))| {
        *op == "system"
            || (matches!(*op, "print" | "printf" | "getline")
                && k > 0
                && ops[k - 1].0 == "pushint"
                && ops[k - 1].1.starts_with('-'))
    });
    Some(if dangerous { Real::Refused } else { Real::Ran })
}

fn awk_fires(program: &str) -> bool {
    fires("awk", &["awk", program], "awk.program")
}

/// `(program, also valid mawk)`: programs gawk --sandbox runs.
const AWK_HARMLESS: &[(&str, bool)] = &[
    ("{print $1}", true),
    ("$3 > 1000 {print $1}", true),
    ("NR%2==0", true),
    ("{ s += $2 } END { print s }", true),
    ("$1 > 5 { print }", true),
    ("{ print ($1 > $2) }", true),
    ("{ print (1 > 2), 3 }", true),
    ("{ print $1, $2 < 5 }", true),
    ("{ print $1 >= 5 }", false),
    ("{ printf(\"%d\\n\", $3 > 1) }", true),
    ("{ x = $3 / 3; y = x / 2; print y }", true),
    ("{ print $3/3 }", true),
    ("{ print $3 / 3 / 1 }", true),
    ("{ print 1/2, 3/4 }", true),
    ("{ print length / 2 }", false),
    ("{ print NF }", true),
    ("/a|b/ { n++ } END { print n }", true),
    ("$1 ~ /x|y/ || $2 == \"a|b\"", true),
    ("{ print \"a > b\" }", true),
    ("{ print \"| cmd\" }", true),
    ("{ print \"system(x)\" }", true),
    ("BEGIN { x = \"getline < f\" }", true),
    ("{ gsub(/a/, \"b\"); print }", true),
    ("{ sub(/[/]/, \"-\"); print }", true),
    ("{ n = split($0, parts, /[/]/); print n }", true),
    ("{ print match($0, /b/) }", true),
    ("{ print index($0, \"/\") }", true),
    ("{ print length($0) }", true),
    ("{ print substr($0, 2, 3) }", true),
    ("{ printf \"%s %d\\n\", $1, $3 }", true),
    ("{ printf(\"%s\\n\", $1) }", true),
    ("BEGIN { while ((getline line) > 0) n++; print n }", true),
    ("{ getline; print }", true),
    ("{ getline x; print x }", true),
    ("NR == 1, NR == 2", true),
    ("{ a[$1] = $2 } END { for (k in a) print k, a[k] }", true),
    ("{ print toupper($1) }", true),
    ("BEGIN { OFS = \"-\" } { $1 = $1; print }", true),
    ("{ print $NF }", true),
    ("{ print $(NF-1) }", true),
    ("{ if ($3 > 1) print \"big\"; else print \"small\" }", true),
    ("{ x = $3 > 1 ? \"y\" : \"n\"; print x }", true),
    ("# only a comment", true),
    ("{ print 1 } # trailing > \"x\" | y", true),
    ("{ print \"x\" }\n{ print \"y\" }", true),
    ("{ print \"x\",\n  $1 }", true),
    ("{ print \\\n $1 }", true),
    ("function f(x) { return x * 2 } { print f($3) }", true),
    ("function f(x) { return /a/ } { print f($3) }", true),
    ("{ print ARGV[0] }", true),
    ("BEGIN { for (i = 0; i < ARGC; i++) print ARGV[i] }", true),
    ("BEGIN { for (k in ARGV) n++; print n }", true),
    ("{ close(\"x\") }", true),
    ("BEGIN { fflush() }", true),
    ("{ x = \"a\"; x = x \"b\"; print x }", true),
    ("{ print -$3 }", true),
    ("{ $2 = \"\"; print }", true),
    ("END { print NR }", true),
    ("{ print; next } END { }", true),
    ("BEGIN { printf \"%5.2f\\n\", 3.14159 }", true),
    ("BEGIN { x = 1e3; y = .5; z = 2e-1; print x + y + z }", true),
    ("BEGIN { print 2^10, 2**3 }", false),
    (
        "BEGIN { switch (1) { case /x/: print; default: print \"d\" } }",
        false,
    ),
    ("BEGIN { print 1 }; BEGIN { print 2 }", true),
    ("!/b/", true),
    ("{ print ($1 ~ /\\//) }", true),
    ("{ x = $1; x /= 2; print x }", true),
    ("{ i++; print i / 2 }", true),
    ("{ print a[1] / 2 }", true),
    ("BEGIN { if (!(\"HOME\" in a)) print \"no\" }", true),
];

/// `(program, also valid mawk)`: programs gawk --sandbox refuses when they
/// run; every dangerous statement runs on the first input line.
const AWK_DANGEROUS: &[(&str, bool)] = &[
    ("BEGIN{system(\"true\")}", true),
    ("{system(\"true\")}", true),
    ("BEGIN { x = system(\"true\") }", true),
    ("BEGIN{print | \"cat\"}", true),
    ("BEGIN{printf \"x\" | \"cat\"}", true),
    ("{ print $1 | \"sort\" } END { close(\"sort\") }", true),
    ("BEGIN{\"date\" | getline x}", true),
    ("BEGIN{\"date\" | getline}", true),
    (
        "BEGIN { cmd = \"date\"; cmd | getline d; close(cmd) }",
        true,
    ),
    ("BEGIN{getline x < \"/etc/hostname\"}", true),
    ("BEGIN{getline < \"/etc/hostname\"}", true),
    ("{getline $2 < \"/etc/hostname\"}", true),
    ("{getline a[1] < \"/etc/hostname\"}", true),
    (
        "BEGIN { while ((getline line < \"/etc/hostname\") > 0) n++ }",
        true,
    ),
    ("{print > \"out\"}", true),
    ("{print $1 > 5}", true),
    ("{print $1, $2 > \"out\"}", true),
    ("{printf \"%s\\n\", $1 >> \"out\"}", true),
    ("{print($1) > \"out\"}", true),
    ("{printf(\"%s\\n\", $1) > \"out\"}", true),
    ("{print (1 > 2) > \"out\"}", true),
    ("{ if ($3 > 1) print $1 > \"out\" }", true),
    ("{ for (i = 1; i <= NF; i++) print $i > \"out\" }", true),
    ("{ print \"a\" \"b\" > \"out\" }", true),
    ("/a/ { print > \"out\" }", true),
    ("$1 ~ /a/ { print $0 > \"out\" }", true),
    ("{ x = $3 / 3; print x > \"out\" }", true),
    ("{ n = split($0, a, / /); print n > \"out\" }", true),
    ("{ # comment\n print > \"out\" }", true),
    ("{ print \\\n > \"out\" }", true),
    ("BEGIN { printf \"%d\" , 1 > \"out\" }", true),
    ("{ print(1)(2) > \"out\" }", true),
    ("{ print $1 > $2 }", true),
    ("{ x = 4 / 2 / 1; system(\"true\"); y = 1 / 2 }", true),
    ("{ print \"/\" } { system(\"true\") }", true),
    ("{ print $1 ~ /[/]/ } { system(\"true\") }", true),
    (
        "BEGIN { ARGV[1] = \"/etc/hostname\"; ARGC = 2 } { print }",
        true,
    ),
    ("BEGIN { ARGV[ARGC++] = \"/etc/hostname\" } { print }", true),
    ("BEGIN{print |& \"cat\"}", false),
    ("BEGIN{f=\"system\"; @f(\"true\")}", false),
    ("@load \"filefuncs\"", false),
    // gawk reads a regex after an `if` condition: the quote in it does not
    // open a string that would hide `system`.
    ("{ if (1) /\"/; system(\"true\") } # \"", false),
];

/// Programs awk refuses as malformed: the guard fires ("not understood").
const AWK_MALFORMED: &[&str] = &[
    "{print \"unterminated}",
    "{ print /unterminated }",
    "BEGIN { x = 1 & 2 }",
    "{ print 'x' }",
    "BEGIN { x = . }",
];

/// Programs gawk --sandbox and mawk run but the guard fires on by design.
const AWK_FIRES_BY_DESIGN: &[(&str, &str)] = &[
    (
        "BEGIN { print ENVIRON[\"HOME\"] }",
        "ENVIRON holds the agent's secrets (tokens, keys); printing them needs a human",
    ),
    (
        "BEGIN { for (k in ENVIRON) print k, ENVIRON[k] }",
        "the whole environment, secrets included",
    ),
];

/// Programs gawk --sandbox refuses (and mawk compiles as a redirection)
/// but the guard lets through by design: gawk and mawk write
/// `/dev/stdout` and `/dev/stderr` to their own streams without opening a
/// file (other awks open the process's own stream by that name).
const AWK_PASSES_BY_DESIGN: &[(&str, &str)] = &[
    ("{print > \"/dev/stdout\"}", "print to awk's own stdout"),
    (
        "{print $1 > \"/dev/stderr\"; n++}",
        "print to awk's own stderr",
    ),
];

#[test]
fn awk_guard_agrees_with_gawk_sandbox_and_mawk_code() {
    let have_gawk = available("gawk", &["--version"]);
    let have_mawk = available("mawk", &["-W", "version"]);
    if !have_gawk && !have_mawk {
        return;
    }
    let mut disagreements = Vec::new();
    let mut counts = [0usize; 2];
    let mut check_one = |program: &str, portable: bool, expected: Real, fires_expected: bool| {
        let ours = awk_fires(program);
        if ours != fires_expected {
            disagreements.push(format!("{program:?}: guard fires {ours}"));
        }
        if have_gawk {
            counts[0] += 1;
            let real = gawk_real(program).expect("gawk is installed");
            if real != expected {
                disagreements.push(format!(
                    "{program:?}: gawk --sandbox {real:?}, listed {expected:?}"
                ));
            }
        }
        if have_mawk && portable {
            counts[1] += 1;
            let real = mawk_real(program).expect("mawk is installed");
            // ENVIRON and ARGV are not in mawk's code as instructions to
            // spot; the rest must match.
            let expected = if program.contains("ARGV") {
                Real::Ran
            } else {
                expected
            };
            if real != expected {
                disagreements.push(format!(
                    "{program:?}: mawk -W dump {real:?}, listed {expected:?}"
                ));
            }
        }
    };
    for (program, portable) in AWK_HARMLESS {
        check_one(program, *portable, Real::Ran, false);
    }
    for (program, portable) in AWK_DANGEROUS {
        check_one(program, *portable, Real::Refused, true);
    }
    for program in AWK_MALFORMED {
        check_one(program, true, Real::Error, true);
    }
    for (program, _why) in AWK_FIRES_BY_DESIGN {
        check_one(program, true, Real::Ran, true);
    }
    for (program, _why) in AWK_PASSES_BY_DESIGN {
        check_one(program, true, Real::Refused, false);
    }
    eprintln!(
        "awk conformance: {} programs ({} harmless, {} dangerous, {} malformed, {} fire by design, \
         {} pass by design); checked against gawk --sandbox: {}, against mawk -W dump: {}",
        AWK_HARMLESS.len()
            + AWK_DANGEROUS.len()
            + AWK_MALFORMED.len()
            + AWK_FIRES_BY_DESIGN.len()
            + AWK_PASSES_BY_DESIGN.len(),
        AWK_HARMLESS.len(),
        AWK_DANGEROUS.len(),
        AWK_MALFORMED.len(),
        AWK_FIRES_BY_DESIGN.len(),
        AWK_PASSES_BY_DESIGN.len(),
        counts[0],
        counts[1],
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

// ------------------------------------------------- generated scripts

/// A small deterministic generator (xorshift64*), so a failure repeats.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        usize::try_from(x >> 33).expect("fits") % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const SED_ADDRESSES: &[&str] = &[
    "", "", "1", "$", "2,4", "/a/", "\\,a,", "/x/,+2", "0~2", "/a/I", "1,~2", "0,/c/", "/[/]/",
];
/// Harmless commands; `true` when the command must end its line (text,
/// labels).
const SED_COMMANDS: &[(&str, bool)] = &[
    ("p", false),
    ("d", false),
    ("n", false),
    ("N", false),
    ("P", false),
    ("h", false),
    ("H", false),
    ("g", false),
    ("G", false),
    ("x", false),
    ("=", false),
    ("l", false),
    ("z", false),
    ("F", false),
    ("s/a/b/g", false),
    ("s|x|y|2", false),
    ("s/[/]/-/", false),
    ("s e w ", false),
    ("y/ab/ba/", false),
    ("{p;s/w/e/}", false),
    ("a text; e id", true),
    ("i\\\nw out", true),
    ("c\\\nnew", true),
    ("b end", true),
    ("t end", true),
];
const SED_DANGERS: &[&str] = &[
    "e id",
    "e",
    "s/a/b/e",
    "s/x/y/w out",
    "w out",
    "W out",
    "r /etc/hostname",
    "R x",
    "e true",
];

/// A random harmless sed script and its command boundaries.
fn sed_script(rng: &mut Rng) -> (String, Vec<usize>) {
    let mut script = String::new();
    let mut boundaries = vec![0];
    for _ in 0..=rng.below(5) {
        let (cmd, ends_line) = SED_COMMANDS[rng.below(SED_COMMANDS.len())];
        let addr = rng.pick(SED_ADDRESSES);
        let bang = if !addr.is_empty() && rng.below(4) == 0 {
            "!"
        } else {
            ""
        };
        if rng.below(8) == 0 {
            // A comment takes no address.
            script.push_str("# e id\n");
        }
        script.push_str(addr);
        script.push_str(bang);
        script.push_str(cmd);
        script.push_str(if ends_line {
            "\n"
        } else {
            rng.pick(&[";", "\n", " ; "])
        });
        boundaries.push(script.len());
    }
    script.push_str(":end");
    (script, boundaries)
}

#[test]
fn generated_harmless_sed_scripts_pass_and_an_inserted_danger_fires() {
    let have_sed = available("sed", &["--version"]);
    let mut rng = Rng(0x5eed_5eed_1234_5678);
    let mut failures = Vec::new();
    for round in 0..300 {
        let (script, boundaries) = sed_script(&mut rng);
        if sed_fires(&script) {
            failures.push(format!("harmless script fires: {script:?}"));
        }
        let at = boundaries[rng.below(boundaries.len())];
        let danger = format!("{}{}\n", rng.pick(SED_ADDRESSES), rng.pick(SED_DANGERS));
        let mut bad = script.clone();
        bad.insert_str(at, &danger);
        if !sed_fires(&bad) {
            failures.push(format!("inserted danger passes: {bad:?}"));
        }
        // Every third pair is also run by the real sed.
        if have_sed && round % 3 == 0 {
            if sed_real(&script) != Some(Real::Ran) {
                failures.push(format!("sed --sandbox does not run: {script:?}"));
            }
            if sed_real(&bad) != Some(Real::Refused) {
                failures.push(format!("sed --sandbox does not refuse: {bad:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

const AWK_PATTERNS: &[&str] = &[
    "",
    "",
    "NR==1",
    "$3 > 1",
    "/a/",
    "$1 ~ /x|y/",
    "NR%2==0",
    "!/b/",
    "/[/]/",
    "$1 > $2",
];
const AWK_STATEMENTS: &[&str] = &[
    "print",
    "print $1",
    "print ($1 > $2)",
    "print $1, ($3 > 1)",
    "x = $3 / 3",
    "s += $3",
    "n++",
    "printf \"%s\\n\", $1",
    "a[$1] = $2",
    "if ($3 > 1) print \"big\"",
    "gsub(/a/, \"b\")",
    "y = x / 2 / 1",
    "print \"| > system(\"",
    "z = $1 ~ /\\//",
    "getline",
    "close(\"f\")",
];
const AWK_DANGERS: &[&str] = &[
    "system(\"true\")",
    "print > \"out\"",
    "print $1 > 5",
    "printf \"x\" >> \"out\"",
    "print | \"cat\"",
    "\"true\" | getline z",
    "getline z < \"/etc/hostname\"",
    "print ENVIRON[\"HOME\"]",
];

/// A random harmless awk program as a list of rules, each a list of
/// statements.
fn awk_rules(rng: &mut Rng) -> Vec<(String, Vec<String>)> {
    (0..=rng.below(3))
        .map(|_| {
            let pattern = rng.pick(AWK_PATTERNS).to_owned();
            let body = (0..=rng.below(3))
                .map(|_| rng.pick(AWK_STATEMENTS).to_owned())
                .collect();
            (pattern, body)
        })
        .collect()
}

fn awk_text(rules: &[(String, Vec<String>)], rng: &mut Rng) -> String {
    rules
        .iter()
        .map(|(pattern, body)| {
            let sep = rng.pick(&["; ", "\n", " ;\n "]);
            format!("{pattern} {{ {} }}", body.join(sep))
        })
        .collect::<Vec<_>>()
        .join(rng.pick(&["\n", " "]))
}

#[test]
fn generated_harmless_awk_programs_pass_and_an_inserted_danger_fires() {
    let have_gawk = available("gawk", &["--version"]);
    let mut rng = Rng(0xa3c5_0000_beef_0042);
    let mut failures = Vec::new();
    for round in 0..300 {
        let mut rules = awk_rules(&mut rng);
        let program = awk_text(&rules, &mut rng);
        if awk_fires(&program) {
            failures.push(format!("harmless program fires: {program:?}"));
        }
        // The danger goes into any statement list, or a BEGIN rule of
        // its own (so gawk runs it) at any rule boundary.
        let danger = rng.pick(AWK_DANGERS).to_owned();
        let in_begin = rng.below(2) == 0;
        if in_begin {
            let at = rng.below(rules.len() + 1);
            rules.insert(at, ("BEGIN".to_owned(), vec![danger.clone()]));
        } else {
            let r = rng.below(rules.len());
            let at = rng.below(rules[r].1.len() + 1);
            rules[r].1.insert(at, danger.clone());
        }
        let bad = awk_text(&rules, &mut rng);
        if !awk_fires(&bad) {
            failures.push(format!("inserted danger passes: {bad:?}"));
        }
        if have_gawk && round % 3 == 0 {
            if gawk_real(&program) != Some(Real::Ran) {
                failures.push(format!("gawk --sandbox does not run: {program:?}"));
            }
            let expected = if danger.contains("ENVIRON") {
                Real::Ran
            } else {
                Real::Refused
            };
            if in_begin && gawk_real(&bad) != Some(expected) {
                failures.push(format!("gawk --sandbox gives not {expected:?}: {bad:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ------------------------------------------- token soup, differential

/// Iterations of the token-soup tests; `SCRIPT_SOUP_ROUNDS` raises it.
fn soup_rounds() -> usize {
    std::env::var("SCRIPT_SOUP_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400)
}

fn soup(rng: &mut Rng, pieces: &[&str], max: usize) -> String {
    (0..=rng.below(max)).map(|_| rng.pick(pieces)).collect()
}

const SED_SOUP: &[&str] = &[
    ":a",
    " ",
    "\t",
    ";",
    "\n",
    "e id",
    "w out",
    "s/a/b/",
    "/",
    "\\",
    "{",
    "}",
    "#",
    "a ",
    "i\\",
    "b",
    "p",
    "y/a/b/",
    "[",
    "]",
    "s",
    "e",
    "w x",
    "r x",
    "1",
    ",",
    "$",
    "!",
    "g",
    "/x/",
    "~2",
    "+1",
    "c",
    "q",
    "l",
    "T",
    "t",
    "x",
    "n",
    ":",
    "I",
    "M",
    "a foo\\",
    "s/[/]/x/",
    "c\\",
    "0r x",
    "v",
    "F",
    "z",
    "s e w ",
    "s/x/y/e",
    "s/x/y/w o",
    "\\,",
    "\r",
    "y,a,b,",
    "#n",
    "0,/x/",
    "R",
    "W",
    "=",
];

/// Random token soup: whenever GNU sed --sandbox refuses a script as
/// running, reading or writing, the guard fires. (The other direction is
/// counted, not asserted: most soup is malformed.)
#[test]
fn sed_token_soup_refused_by_sed_sandbox_always_fires() {
    if !available("sed", &["--version"]) {
        return;
    }
    let mut rng = Rng(0x00de_ad5e_d000_0001);
    let (mut refused, mut ran, mut ran_but_fires) = (0, 0, Vec::new());
    let mut holes = Vec::new();
    for _ in 0..soup_rounds() {
        let script = soup(&mut rng, SED_SOUP, 10);
        let ours = sed_fires(&script);
        match sed_real(&script) {
            Some(Real::Refused) => {
                refused += 1;
                if !ours {
                    holes.push(script);
                }
            }
            Some(Real::Ran) => {
                ran += 1;
                if ours {
                    ran_but_fires.push(script);
                }
            }
            _ => {}
        }
    }
    eprintln!(
        "sed soup: {refused} refused by sed --sandbox, {ran} run, of which the guard fires on {}: {ran_but_fires:?}",
        ran_but_fires.len()
    );
    assert!(
        holes.is_empty(),
        "sed refuses, the guard passes: {holes:#?}"
    );
}

const AWK_SOUP: &[&str] = &[
    "BEGIN",
    "{",
    "}",
    "(",
    ")",
    "/",
    "\"",
    "#",
    "\n",
    ";",
    "x",
    "1",
    "if",
    "print",
    ">",
    "|",
    "getline",
    "system(\"true\")",
    " ",
    "=",
    "~",
    "a[1]",
    "$1",
    "++",
    ",",
    "else",
    "while",
    "/x/",
    "\"s\"",
    "\\\n",
    "[",
    "]",
    "<",
    "printf",
    "\"f\"",
    "for",
    "in",
    "!",
    "?",
    ":",
    "-",
    "*",
];

/// Statement-sized pieces, so more of the soup is valid awk.
const AWK_SOUP_STATEMENTS: &[&str] = &[
    "x = 1 / 2;",
    "if (x) ",
    "/\"/;",
    "print \"a\" ",
    "> \"f\"",
    "| \"cat\"",
    "system(\"true\");",
    "# c \"\n",
    "\"s\";",
    "x = a[1] / 2 / 1;",
    "(x > 1);",
    "{",
    "}",
    "\n",
    "getline y ",
    "< \"/etc/hostname\";",
    "while (0) ",
    "else ",
    ";",
    "print (1 > 2) ",
    "x++ / 2;",
    "/x/ ~ $0;",
    "\\\n",
    "printf(\"%s\", x) ",
    ",",
    "y = \"/\";",
    "/[/\"]/;",
    "if (1) /#/;",
];

/// The same for gawk --sandbox: when it refuses, the guard fires.
#[test]
fn awk_token_soup_refused_by_gawk_sandbox_always_fires() {
    if !available("gawk", &["--version"]) {
        return;
    }
    let mut rng = Rng(0x00a1_1ce5_0000_0002);
    let (mut refused, mut ran, mut ran_but_fires) = (0, 0, Vec::new());
    let mut holes = Vec::new();
    for _ in 0..soup_rounds() {
        let pieces = if rng.below(2) == 0 {
            AWK_SOUP
        } else {
            AWK_SOUP_STATEMENTS
        };
        let program = format!("BEGIN {{ {} }}", soup(&mut rng, pieces, 12));
        let ours = awk_fires(&program);
        match gawk_real(&program) {
            Some(Real::Refused) => {
                refused += 1;
                if !ours {
                    holes.push(program);
                }
            }
            Some(Real::Ran) => {
                ran += 1;
                if ours {
                    ran_but_fires.push(program);
                }
            }
            _ => {}
        }
    }
    eprintln!(
        "awk soup: {refused} refused by gawk --sandbox, {ran} run, of which the guard fires on {}: {ran_but_fires:?}",
        ran_but_fires.len()
    );
    assert!(
        holes.is_empty(),
        "gawk refuses, the guard passes: {holes:#?}"
    );
}
