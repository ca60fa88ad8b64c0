//! The read side behind `ui-bridge audit query|tail [-f]`: filtered reads,
//! the last lines, and following new lines as they are appended, across
//! the rotated files (`<log>.1`, `<log>.2`, …, then the log) in chain order.
//!
//! It decides which records a query shows: since a time, for one agent,
//! with one decision, at or above a risk level. It refuses a filter value it
//! does not understand rather than silently matching nothing, and reads
//! every line with a bound. It does not judge integrity: a line that is not
//! JSON is skipped with a warning here and reported by `verify`.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader};
use std::ops::ControlFlow;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;

use super::MAX_RECORD_BYTES;
use super::error::AuditError;
use super::files::{open_log_for_read, rotated_files, still_names};
use super::lines::{LineRead, last_lines, read_line};
use super::record::{AuditDecision, RiskLevel};

/// How much a tail may hold in memory; fewer lines come back beyond it.
const TAIL_MAX_BYTES: usize = 16 * 1024 * 1024;

/// The longest pause between two checks of the stop flag while following.
const STOP_CHECK: Duration = Duration::from_millis(50);

/// Which records a query returns; every field set must match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditFilter {
    /// Only records with `ts` at or after this time (ms since the epoch).
    pub since_ms: Option<i64>,
    /// Only records of this agent (`agentId`, exact).
    pub agent: Option<String>,
    /// Only records with this decision (`allow`, `deny`, `allow-once`,
    /// `allow-always`, `ask`).
    pub decision: Option<String>,
    /// Only records at this risk level or above (`low`, `medium`, `high`,
    /// `critical`).
    pub risk: Option<String>,
}

/// A filter with its values checked once.
struct Compiled<'a> {
    since_ms: Option<i64>,
    agent: Option<&'a str>,
    decision: Option<AuditDecision>,
    risk: Option<RiskLevel>,
}

impl AuditFilter {
    /// Checks the values, refusing unknown decisions and risk levels.
    fn compile(&self) -> Result<Compiled<'_>, AuditError> {
        let decision = self
            .decision
            .as_deref()
            .map(|text| {
                serde_json::from_value::<AuditDecision>(Value::String(text.to_owned())).map_err(
                    |_| AuditError::InvalidFilter {
                        field: "decision",
                        message: format!(
                            "unknown decision `{text}`, expected allow, deny, allow-once, \
                             allow-always or ask"
                        ),
                    },
                )
            })
            .transpose()?;
        let risk = self
            .risk
            .as_deref()
            .map(|text| {
                text.parse::<RiskLevel>()
                    .map_err(|message| AuditError::InvalidFilter {
                        field: "risk",
                        message,
                    })
            })
            .transpose()?;
        Ok(Compiled {
            since_ms: self.since_ms,
            agent: self.agent.as_deref(),
            decision,
            risk,
        })
    }
}

impl Compiled<'_> {
    fn matches(&self, value: &Value) -> bool {
        if let Some(since) = self.since_ms
            && value
                .get("ts")
                .and_then(Value::as_i64)
                .is_none_or(|ts| ts < since)
        {
            return false;
        }
        if let Some(agent) = self.agent
            && value.get("agentId").and_then(Value::as_str) != Some(agent)
        {
            return false;
        }
        if let Some(decision) = self.decision {
            let found = value
                .get("decision")
                .and_then(|d| serde_json::from_value::<AuditDecision>(d.clone()).ok());
            if found != Some(decision) {
                return false;
            }
        }
        if let Some(minimum) = self.risk {
            let found = value
                .get("risk")
                .and_then(|r| r.get("level"))
                .and_then(Value::as_str)
                .and_then(|level| level.parse::<RiskLevel>().ok());
            if found.is_none_or(|level| level < minimum) {
                return false;
            }
        }
        true
    }
}

/// Every record matching `filter`, oldest first, as the JSON objects stored
/// (header fields included), from the rotated files and then the log.
/// Holds every match in memory; [`scan`] streams them instead.
pub fn read(path: &Path, filter: &AuditFilter) -> Result<Vec<Value>, AuditError> {
    let mut records = Vec::new();
    scan(path, filter, |record| {
        records.push(record);
        ControlFlow::Continue(())
    })?;
    Ok(records)
}

/// Calls `on_record` with every record matching `filter`, oldest first:
/// the rotated files (`<log>.1`, `<log>.2`, …) in order, then the log, as
/// they were when the scan started. Holds one line at a time; `on_record`
/// stops the scan early by returning [`ControlFlow::Break`].
///
/// A log that does not exist while rotated files do is read as empty (a
/// crash between a rotation's rename and its new file leaves that); with
/// neither, the error is the log's `NotFound`.
pub fn scan(
    path: &Path,
    filter: &AuditFilter,
    mut on_record: impl FnMut(Value) -> ControlFlow<()>,
) -> Result<(), AuditError> {
    let filter = filter.compile()?;
    let files = LogFiles::open(path)?;
    for rotated in &files.rotated {
        let Some(file) = open_rotated(rotated)? else {
            continue;
        };
        if scan_file(file, rotated, &filter, &mut on_record)?.is_break() {
            return Ok(());
        }
    }
    if let Some(file) = files.current {
        // The last file: stopping early and reaching its end both end the scan.
        let _stopped = scan_file(file, path, &filter, &mut on_record)?;
    }
    Ok(())
}

/// One file of a [`scan`]: every complete line that is a JSON object and
/// matches; over-long, partial and non-JSON lines are skipped with a
/// warning (`verify` reports them).
fn scan_file(
    file: File,
    path: &Path,
    filter: &Compiled<'_>,
    on_record: &mut impl FnMut(Value) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, AuditError> {
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();
    let mut line = 0u64;
    loop {
        line += 1;
        match read_line(&mut reader, &mut buf, MAX_RECORD_BYTES)
            .map_err(AuditError::io("read", path))?
        {
            LineRead::Eof => return Ok(ControlFlow::Continue(())),
            LineRead::TooLong => {
                tracing::warn!(path = %path.display(), line, "skipping an over-long audit line");
                reader
                    .skip_until(b'\n')
                    .map_err(AuditError::io("read", path))?;
                continue;
            }
            LineRead::Unterminated => {
                tracing::warn!(path = %path.display(), line, "skipping a partial last audit line");
                return Ok(ControlFlow::Continue(()));
            }
            LineRead::Complete => {}
        }
        match serde_json::from_slice::<Value>(&buf) {
            Ok(value) if value.is_object() => {
                if filter.matches(&value) && on_record(value).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            _ => tracing::warn!(
                path = %path.display(),
                line,
                "skipping an audit line that is not a JSON object"
            ),
        }
    }
}

/// The files of one log at one moment, in chain order: the rotated files
/// older than the log, oldest first, then the log itself, already open.
struct LogFiles {
    /// Rotated files older than `current`, oldest first.
    rotated: Vec<PathBuf>,
    /// The log, opened before the rotated files were listed; `None` when it
    /// does not exist but rotated files do.
    current: Option<File>,
}

impl LogFiles {
    /// Opens the log first and then lists the rotated files, so a rotation
    /// in between cannot make a file be read twice or out of order: if the
    /// file opened as the log has since been renamed to `<log>.N`, only
    /// the files older than `N` come before it.
    fn open(path: &Path) -> Result<Self, AuditError> {
        let current = match open_log_for_read(path) {
            Ok(file) => Some(file),
            Err(err) if is_not_found(&err) => None,
            Err(err) => return Err(err),
        };
        let mut rotated: Vec<PathBuf> = rotated_files(path)?
            .into_iter()
            .map(|(_, file)| file)
            .collect();
        match &current {
            Some(file) => {
                let opened = file.metadata().map_err(AuditError::io("inspect", path))?;
                if let Some(at) = rotated.iter().position(|file| same_file(file, &opened)) {
                    rotated.truncate(at);
                }
            }
            None if rotated.is_empty() => {
                return Err(AuditError::io("open", path)(io::Error::from(
                    io::ErrorKind::NotFound,
                )));
            }
            None => {}
        }
        Ok(Self { rotated, current })
    }
}

/// Opens a rotated file for reading; `None`, with a warning, when it was
/// removed after it was listed (`verify` reports the gap).
fn open_rotated(path: &Path) -> Result<Option<File>, AuditError> {
    match open_log_for_read(path) {
        Ok(file) => Ok(Some(file)),
        Err(err) if is_not_found(&err) => {
            tracing::warn!(path = %path.display(), "a rotated audit file disappeared while being read");
            Ok(None)
        }
        Err(err) => Err(err),
    }
}

/// Whether `err` says a file does not exist.
fn is_not_found(err: &AuditError) -> bool {
    matches!(err, AuditError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
}

/// The last lines of the log and where they end, so `tail -f` can follow
/// from exactly there without missing or repeating a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    /// Up to `n` complete lines, oldest first (invalid UTF-8 replaced),
    /// reaching back into the rotated files when the log holds fewer.
    pub lines: Vec<String>,
    /// Byte offset just after the last complete line of the log (0 when
    /// the log does not exist yet); pass it to [`follow`].
    pub end: u64,
}

/// The last `n` complete lines, read from the end of the log and, when it
/// holds fewer, from the ends of the rotated files, newest first; never
/// more than 16 MiB in all (fewer lines come back beyond it).
/// A partial last line of the log (a write in progress, or a crash) is
/// left for [`follow`]; one at the end of a rotated file is a torn write
/// `verify` reports, and is skipped.
pub fn tail(path: &Path, n: usize) -> Result<Tail, AuditError> {
    let files = LogFiles::open(path)?;
    let (mut lines, end) = match &files.current {
        Some(file) => current_tail(file, path, n)?,
        None => (Vec::new(), 0),
    };
    let mut budget = TAIL_MAX_BYTES.saturating_sub(lines.iter().map(Vec::len).sum());
    for rotated in files.rotated.iter().rev() {
        if lines.len() >= n || budget == 0 {
            break;
        }
        let Some(file) = open_rotated(rotated)? else {
            continue;
        };
        let len = file
            .metadata()
            .map_err(AuditError::io("inspect", rotated))?
            .len();
        let got = match last_lines(&file, rotated, len, n - lines.len(), budget) {
            Ok(got) => got,
            // Not even its last line fits in what is left: stop here.
            Err(AuditError::LineTooLong { .. }) => break,
            Err(err) => return Err(err),
        };
        let mut older = got.lines;
        if got.unterminated && older.pop().is_some() {
            tracing::warn!(path = %rotated.display(), "skipping a partial last audit line");
        }
        budget = budget.saturating_sub(older.iter().map(Vec::len).sum());
        older.append(&mut lines);
        lines = older;
    }
    let skip = lines.len().saturating_sub(n);
    let lines = lines[skip..]
        .iter()
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect();
    Ok(Tail { lines, end })
}

/// Up to `n` last complete lines of the open log and the offset just
/// after them.
fn current_tail(file: &File, path: &Path, n: usize) -> Result<(Vec<Vec<u8>>, u64), AuditError> {
    let len = file
        .metadata()
        .map_err(AuditError::io("inspect", path))?
        .len();
    // Ask for one more line, in case the last one is partial.
    let mut got = last_lines(file, path, len, n.saturating_add(1), TAIL_MAX_BYTES)?;
    let mut end = len;
    if got.unterminated
        && let Some(partial) = got.lines.pop()
    {
        end -= partial.len() as u64;
    }
    let skip = got.lines.len().saturating_sub(n);
    got.lines.drain(..skip);
    Ok((got.lines, end))
}

/// Calls `on_line` for every complete line appended after `from_offset`,
/// polling every `poll`, until `stop` is set; returns the offset reached
/// in the file the log's path names at that moment.
///
/// It follows rotation: once the file it reads has been renamed away and
/// holds nothing new, it goes on from the start of the new log (waiting
/// for it to appear, as after a rotation's rename). A log that does not
/// exist yet is waited for the same way. It refuses a log that shrinks
/// (append-only logs never do).
///
/// # Caveats
///
/// `from_offset` is taken to be in the file the path names when `follow`
/// opens it: a rotation between [`tail`] and `follow` makes it start at
/// that offset of the new file (or refuse it as shrunk).
pub fn follow(
    path: &Path,
    from_offset: u64,
    stop: &AtomicBool,
    poll: Duration,
    mut on_line: impl FnMut(&str),
) -> Result<u64, AuditError> {
    let Some(mut file) = wait_for_log(path, stop, poll)? else {
        return Ok(from_offset);
    };
    let mut offset = from_offset;
    let mut pending: Vec<u8> = Vec::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(offset);
        }
        let len = file
            .metadata()
            .map_err(AuditError::io("inspect", path))?
            .len();
        let read_to = offset + pending.len() as u64;
        if len < read_to {
            return Err(AuditError::Shrunk {
                path: path.to_path_buf(),
                from: read_to,
                to: len,
            });
        }
        if len > read_to {
            read_new(&file, path, read_to, len, &mut pending)?;
            while let Some(at) = pending.iter().position(|b| *b == b'\n') {
                let rest = pending.split_off(at + 1);
                let line = &pending[..at];
                on_line(&String::from_utf8_lossy(line));
                offset += pending.len() as u64;
                pending = rest;
                if stop.load(Ordering::Relaxed) {
                    return Ok(offset);
                }
            }
            if pending.len() > MAX_RECORD_BYTES {
                return Err(AuditError::LineTooLong {
                    path: path.to_path_buf(),
                    line: 0,
                    limit: MAX_RECORD_BYTES,
                });
            }
            continue;
        }
        if still_names(path, &file)?.is_none() {
            // Renamed away. A writer appended to it before renaming it
            // (both under the writers' lock), so look once more for bytes
            // that arrived after the length above; only then move on.
            let len = file
                .metadata()
                .map_err(AuditError::io("inspect", path))?
                .len();
            if len > read_to {
                continue;
            }
            if !pending.is_empty() {
                tracing::warn!(path = %path.display(), "the rotated audit file ends in a partial line; skipping it");
            }
            let Some(next) = next_file(path, &file, stop, poll)? else {
                return Ok(offset);
            };
            file = next;
            offset = 0;
            pending.clear();
            continue;
        }
        sleep_unless_stopped(poll, stop);
    }
}

/// The file that continues the chain after `held`, which the log's path
/// no longer names: the next rotated file when `held` is now `<log>.N` and
/// a newer `<log>.M` exists too (several rotations between two polls),
/// else the log itself, waited for while it does not exist; `None` when
/// `stop` is set first.
fn next_file(
    path: &Path,
    held: &File,
    stop: &AtomicBool,
    poll: Duration,
) -> Result<Option<File>, AuditError> {
    let held = held.metadata().map_err(AuditError::io("inspect", path))?;
    let rotated = rotated_files(path)?;
    let newer = rotated
        .iter()
        .position(|(_, file)| same_file(file, &held))
        .and_then(|at| rotated.get(at + 1));
    if let Some((_, newer)) = newer
        && let Some(file) = open_rotated(newer)?
    {
        return Ok(Some(file));
    }
    wait_for_log(path, stop, poll)
}

/// Whether `path` names the file `opened` describes (same device and inode).
fn same_file(path: &Path, opened: &fs::Metadata) -> bool {
    fs::symlink_metadata(path)
        .is_ok_and(|meta| (meta.dev(), meta.ino()) == (opened.dev(), opened.ino()))
}

/// Opens the log for reading, polling every `poll` while it does not
/// exist; `None` when `stop` is set first.
fn wait_for_log(
    path: &Path,
    stop: &AtomicBool,
    poll: Duration,
) -> Result<Option<File>, AuditError> {
    loop {
        match open_log_for_read(path) {
            Ok(file) => return Ok(Some(file)),
            Err(err) if is_not_found(&err) => {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                sleep_unless_stopped(poll, stop);
            }
            Err(err) => return Err(err),
        }
    }
}

/// Appends bytes `from..to` of `file` to `pending`, at most one line limit
/// at a time so a runaway writer cannot make us buffer the whole file.
fn read_new(
    file: &File,
    path: &Path,
    from: u64,
    to: u64,
    pending: &mut Vec<u8>,
) -> Result<(), AuditError> {
    let size = (to - from).min(MAX_RECORD_BYTES as u64 + 1);
    let start = pending.len();
    // `size` is bounded by MAX_RECORD_BYTES + 1, which fits in usize.
    pending.resize(start + usize::try_from(size).unwrap_or(0), 0);
    file.read_exact_at(&mut pending[start..], from)
        .map_err(AuditError::io("read", path))
}

fn sleep_unless_stopped(total: Duration, stop: &AtomicBool) {
    let mut left = total;
    while !left.is_zero() && !stop.load(Ordering::Relaxed) {
        let step = left.min(STOP_CHECK);
        std::thread::sleep(step);
        left -= step;
    }
}
