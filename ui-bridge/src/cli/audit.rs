//! `ui-bridge audit tail|query|verify`: reading the decision log from a
//! terminal.
//!
//! It decides where the log is (`--audit`, else `exec-audit.jsonl` beside
//! the `--approvals` file, else beside the default approvals file) and how records look: one escaped line per
//! record (agent-controlled text never reaches the terminal raw), or one
//! compact JSON object per line with `--json`. It refuses filter values it
//! does not understand and never writes to the log. `verify` upholds the
//! audit chain of DESIGN.md section 9 (invariant 10: every decision is in
//! the log, and a changed line is found): exit 0 with a one-line summary
//! when intact, exit 66 (a file error) naming the first broken line
//! otherwise.
//!
//! Exit status (`ui_bridge::exit::Exit`): 0 done (`tail -f` stopped by
//! SIGINT or SIGTERM included), 66 the chain is broken or the log
//! unreadable, 64 usage error.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Context;
use nix::sys::signal::{SigSet, Signal};
use serde_json::Value;
use ui_bridge::audit::{
    AuditError, AuditFilter, default_audit_path, follow, format_human, now_ms, parse_duration,
    scan, tail, verify_against,
};
use ui_bridge::exit::{Exit, Failure};

/// How often `tail -f` looks for new lines.
const FOLLOW_POLL: Duration = Duration::from_millis(200);

/// Arguments of `ui-bridge audit`.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Print the last records, and with -f the new ones as they come
    ///
    /// When the log holds fewer than N records, the rest come from the
    /// rotated files (LOG.1, LOG.2, …), newest first. A partial last line
    /// (a write in progress) is not shown until it is complete. -f polls
    /// the file, follows it into a new file when it rotates, and stops on
    /// Ctrl-C (SIGINT) or SIGTERM.
    ///
    /// Examples:
    ///   ui-bridge audit tail
    ///   ui-bridge audit tail -n 50 -f
    ///   ui-bridge audit tail -n 1 --json
    #[command(verbatim_doc_comment)]
    Tail(TailArgs),

    /// Print the records matching every filter given, oldest first
    ///
    /// Reads the rotated files (LOG.1, LOG.2, …) and then the log, in
    /// order, one record at a time.
    ///
    /// Examples:
    ///   ui-bridge audit query --since 1h
    ///   ui-bridge audit query --agent main --decision deny
    ///   ui-bridge audit query --risk high --json
    #[command(verbatim_doc_comment)]
    Query(QueryArgs),

    /// Check the hash chain: every line unchanged, none removed or inserted
    ///
    /// Exit 0 and one summary line (records, last sequence number, head
    /// hash) when intact; exit 66 naming the first broken line otherwise.
    /// Lines removed from the end cannot be seen by the chain alone: keep
    /// the printed head hash elsewhere and compare it later.
    ///
    /// The chain is followed across rotated files (LOG.1, LOG.2, …, then
    /// LOG), and checked against the head file beside the log (LOG.head)
    /// and, with --expect-head, against a head kept elsewhere (the seq and
    /// hash of the last record your journald or syslog collector holds),
    /// so a log cut short or rewritten from the end is caught too.
    ///
    /// Examples:
    ///   ui-bridge audit verify
    ///   ui-bridge audit verify --audit /backup/exec-audit.jsonl
    ///   ui-bridge audit verify --expect-head 1042:5f0c…e9
    ///   ui-bridge audit verify --approvals ./exec-approvals.json
    #[command(verbatim_doc_comment)]
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    #[command(flatten)]
    log: LogArg,

    /// A head kept outside this machine, as SEQ:HASH (the
    /// EXEC_APPROVALS_SEQ and EXEC_APPROVALS_HASH of a journald copy, or
    /// seq and hash of a syslog copy): the log must reach SEQ with that hash
    #[arg(long, value_name = "SEQ:HASH")]
    expect_head: Option<ui_bridge::audit::ChainHead>,
}

#[derive(Debug, clap::Args)]
struct LogArg {
    /// The audit log [default: exec-audit.jsonl beside the approvals file]
    #[arg(long, value_name = "FILE", conflicts_with = "approvals")]
    audit: Option<PathBuf>,

    /// The approvals file whose log to read (exec-audit.jsonl beside it),
    /// as `serve --approvals` was given [default: the file `serve` finds:
    /// $CLAWDBOT_STATE_DIR, else $OPENCLAW_STATE_DIR, else an existing
    /// ~/.clawdbot or ~/.openclaw file, else ~/.clawdbot]
    #[arg(long, value_name = "FILE")]
    approvals: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct TailArgs {
    #[command(flatten)]
    log: LogArg,

    /// How many of the last records to print
    #[arg(short = 'n', long = "lines", value_name = "N", default_value_t = 10)]
    lines: usize,

    /// Keep printing records as they are appended, until Ctrl-C
    #[arg(short = 'f', long)]
    follow: bool,

    /// One JSON object per line instead of readable text
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct QueryArgs {
    #[command(flatten)]
    log: LogArg,

    /// Only records from the last DUR (30s, 15m, 2h, 7d)
    #[arg(long, value_name = "DUR", value_parser = parse_since)]
    since: Option<Duration>,

    /// Only records of this agent (exact id)
    #[arg(long, value_name = "ID")]
    agent: Option<String>,

    /// Only records with this decision: allow, deny, allow-once,
    /// allow-always or ask
    #[arg(long, value_name = "D")]
    decision: Option<String>,

    /// Only records at this risk level or above: low, medium, high, critical
    #[arg(long, value_name = "LEVEL")]
    risk: Option<String>,

    /// One JSON object per line instead of readable text
    #[arg(long)]
    json: bool,
}

/// Runs `ui-bridge audit`; returns how it ended.
pub fn run(args: AuditArgs) -> anyhow::Result<Exit> {
    let result = match args.action {
        Action::Tail(args) => run_tail(&args),
        Action::Query(args) => run_query(&args),
        Action::Verify(args) => run_verify(&args),
    };
    match result {
        Err(err) if is_broken_pipe(&err) => Ok(Exit::Success),
        other => other,
    }
}

impl LogArg {
    /// The log to read: `--audit`, else beside `--approvals`, else beside
    /// the default approvals file.
    fn path(&self) -> anyhow::Result<PathBuf> {
        if let Some(path) = &self.audit {
            return Ok(path.clone());
        }
        let approvals = match &self.approvals {
            Some(path) => path.clone(),
            None => approvals_ipc::approvals::default_approvals_path_from_env()?,
        };
        let dir = approvals.parent().unwrap_or(Path::new("."));
        Ok(default_audit_path(dir))
    }
}

fn run_tail(args: &TailArgs) -> anyhow::Result<Exit> {
    let path = args.log.path()?;
    // Block the stop signals before any thread exists, so every thread
    // inherits the mask and only the waiter below receives them.
    let stop = if args.follow {
        Some(stop_on_signals()?)
    } else {
        None
    };
    let last = tail(&path, args.lines).map_err(|err| read_error(&path, err))?;
    let mut out = std::io::stdout().lock();
    for line in &last.lines {
        print_line(&mut out, line, args.json)?;
    }
    out.flush()?;
    let Some(stop) = stop else {
        return Ok(Exit::Success);
    };
    let mut write_error = None;
    follow(&path, last.end, &stop, FOLLOW_POLL, |line| {
        let written = print_line(&mut out, line, args.json).and_then(|()| out.flush());
        if let Err(err) = written {
            write_error = Some(err);
            stop.store(true, Ordering::Relaxed);
        }
    })
    .map_err(|err| read_error(&path, err))?;
    match write_error {
        Some(err) => Err(err.into()),
        None => Ok(Exit::Success),
    }
}

fn run_query(args: &QueryArgs) -> anyhow::Result<Exit> {
    let path = args.log.path()?;
    let since_ms = args.since.map(|since| {
        let back = i64::try_from(since.as_millis()).unwrap_or(i64::MAX);
        now_ms().saturating_sub(back)
    });
    let filter = AuditFilter {
        since_ms,
        agent: args.agent.clone(),
        decision: args.decision.clone(),
        risk: args.risk.clone(),
    };
    // Streamed: one record in memory at a time, however many files.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut write_error = None;
    scan(&path, &filter, |record| {
        match print_value(&mut out, &record, args.json) {
            Ok(()) => ControlFlow::Continue(()),
            Err(err) => {
                write_error = Some(err);
                ControlFlow::Break(())
            }
        }
    })
    .map_err(|err| read_error(&path, err))?;
    if let Some(err) = write_error {
        return Err(err.into());
    }
    out.flush()?;
    Ok(Exit::Success)
}

fn run_verify(args: &VerifyArgs) -> anyhow::Result<Exit> {
    let path = args.log.path()?;
    match verify_against(&path, args.expect_head.as_ref()) {
        Ok(report) => {
            println!(
                "ok: {} intact, {} record(s) in {} file(s), last seq {}, head {}",
                path.display(),
                report.lines,
                report.files,
                report.last_seq,
                report.head
            );
            if !report.head_file_checked && args.expect_head.is_none() {
                eprintln!(
                    "warning: no head file {}: lines removed from the end cannot be detected here\nhint: pass --expect-head SEQ:HASH from a copy kept elsewhere",
                    ui_bridge::audit::head_path_for(&path).display()
                );
            }
            Ok(Exit::Success)
        }
        Err(err) => match broken_line(&err) {
            Some(line) => {
                eprintln!(
                    "error: {}: first broken line: {line}\n{err}\nhint: compare with a backup; \
                     the lines before {line} are intact",
                    path.display()
                );
                Ok(Exit::FileError)
            }
            None if is_tampering(&err) => {
                eprintln!("error: {}: {err}", path.display());
                Ok(Exit::FileError)
            }
            None => Err(read_error(&path, err)),
        },
    }
}

/// Damage the chain alone cannot show, found against a head or the
/// rotated files: the log is not intact.
fn is_tampering(err: &AuditError) -> bool {
    matches!(
        err,
        AuditError::CutShort { .. }
            | AuditError::TailRewritten { .. }
            | AuditError::MissingStart { .. }
    )
}

/// The first line that is not as it was written, when `err` is a break in
/// the chain rather than a failure to read. A line whose `prev` does not
/// match the hash of the line before means that earlier line changed (or
/// lines between were removed or inserted), so the earlier line is named.
fn broken_line(err: &AuditError) -> Option<u64> {
    match err {
        AuditError::InFile { source, .. } => broken_line(source),
        AuditError::BrokenChain { line, .. } => Some(line.saturating_sub(1).max(1)),
        AuditError::Parse { line, .. }
        | AuditError::Truncated { line }
        | AuditError::BadSequence { line, .. }
        | AuditError::UnsupportedVersion { line, .. }
        | AuditError::LineTooLong { line, .. } => Some(*line),
        _ => None,
    }
}

/// Wraps a read failure; a log that does not exist yet gets a hint instead
/// of the OS error.
fn read_error(path: &Path, err: AuditError) -> anyhow::Error {
    match &err {
        AuditError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            Failure::file(format!(
                "no audit log at {}\nhint: the bridge creates it with the first decision; pass --audit FILE for another log",
                path.display()
            ))
            .into()
        }
        _ => anyhow::Error::new(err),
    }
}

/// Prints one stored line: re-serialized JSON, or the escaped human form.
fn print_line(out: &mut impl Write, line: &str, json: bool) -> std::io::Result<()> {
    match serde_json::from_str::<Value>(line) {
        Ok(value) if value.is_object() => print_value(out, &value, json),
        _ => {
            tracing::warn!(
                "skipping an audit line that is not a record; run `ui-bridge audit verify`"
            );
            Ok(())
        }
    }
}

/// One record per line. `--json` re-serializes rather than echoing the
/// bytes, so each output line is one valid JSON object.
fn print_value(out: &mut impl Write, value: &Value, json: bool) -> std::io::Result<()> {
    if json {
        serde_json::to_writer(&mut *out, value)?;
        writeln!(out)
    } else {
        writeln!(out, "{}", format_human(value))
    }
}

/// A flag set when SIGINT or SIGTERM arrives. The signals are blocked in
/// this thread (and so in every thread started later) and taken by a
/// dedicated waiter, which needs no unsafe signal handler.
fn stop_on_signals() -> anyhow::Result<Arc<AtomicBool>> {
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGINT);
    signals.add(Signal::SIGTERM);
    signals
        .thread_block()
        .context("cannot block SIGINT and SIGTERM")?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("audit-tail-signals".to_owned())
        .spawn(move || {
            if signals.wait().is_ok() {
                flag.store(true, Ordering::Relaxed);
            }
        })
        .context("cannot start the signal waiter")?;
    Ok(stop)
}

fn parse_since(text: &str) -> Result<Duration, String> {
    parse_duration(text).map_err(|err| err.to_string())
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_chain_names_the_line_before_the_mismatch() {
        let err = AuditError::BrokenChain {
            line: 4,
            expected: "a".into(),
            found: "b".into(),
        };
        assert_eq!(broken_line(&err), Some(3));
        let first = AuditError::BrokenChain {
            line: 1,
            expected: "a".into(),
            found: "b".into(),
        };
        assert_eq!(broken_line(&first), Some(1));
    }

    #[test]
    fn damaged_lines_are_named_themselves_and_io_errors_are_not_breaks() {
        assert_eq!(
            broken_line(&AuditError::Parse {
                line: 7,
                message: "x".into()
            }),
            Some(7)
        );
        assert_eq!(broken_line(&AuditError::Truncated { line: 2 }), Some(2));
        let io = AuditError::Io {
            action: "open",
            path: PathBuf::from("x"),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        assert_eq!(broken_line(&io), None);
    }

    #[test]
    fn non_records_are_skipped_and_json_output_is_one_object_per_line() {
        let mut out = Vec::new();
        print_line(&mut out, "not json", true).unwrap();
        print_line(&mut out, "[1,2]", true).unwrap();
        print_line(&mut out, r#"{"seq": 1, "event": "decision"}"#, true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"seq\":1,\"event\":\"decision\"}\n"
        );
    }
}
