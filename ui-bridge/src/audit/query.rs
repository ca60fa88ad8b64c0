//! The read side behind `ui-bridge audit query|tail [-f]`: filtered reads,
//! the last lines, and following new lines as they are appended.
//!
//! It decides which records a query shows: since a time, for one agent,
//! with one decision, at or above a risk level. It refuses a filter value it
//! does not understand rather than silently matching nothing, and reads
//! every line with a bound. It does not judge integrity: a line that is not
//! JSON is skipped with a warning here and reported by `verify`.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;

use super::MAX_RECORD_BYTES;
use super::error::AuditError;
use super::files::open_log_for_read;
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
/// (header fields included).
pub fn read(path: &Path, filter: &AuditFilter) -> Result<Vec<Value>, AuditError> {
    let filter = filter.compile()?;
    let mut reader = BufReader::new(open_log_for_read(path)?);
    let mut buf = Vec::new();
    let mut records = Vec::new();
    let mut line = 0u64;
    loop {
        line += 1;
        match read_line(&mut reader, &mut buf, MAX_RECORD_BYTES)
            .map_err(AuditError::io("read", path))?
        {
            LineRead::Eof => return Ok(records),
            LineRead::TooLong => {
                tracing::warn!(line, "skipping an over-long audit line");
                reader
                    .skip_until(b'\n')
                    .map_err(AuditError::io("read", path))?;
                continue;
            }
            LineRead::Unterminated => {
                tracing::warn!(line, "skipping a partial last audit line");
                return Ok(records);
            }
            LineRead::Complete => {}
        }
        match serde_json::from_slice::<Value>(&buf) {
            Ok(value) if value.is_object() => {
                if filter.matches(&value) {
                    records.push(value);
                }
            }
            _ => tracing::warn!(line, "skipping an audit line that is not a JSON object"),
        }
    }
}

/// The last lines of the log and where they end, so `tail -f` can follow
/// from exactly there without missing or repeating a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    /// Up to `n` complete lines, oldest first (invalid UTF-8 replaced).
    pub lines: Vec<String>,
    /// Byte offset just after the last complete line; pass it to [`follow`].
    pub end: u64,
}

/// The last `n` complete lines, read from the end of the file. A partial
/// last line (a write in progress, or a crash) is left for [`follow`].
pub fn tail(path: &Path, n: usize) -> Result<Tail, AuditError> {
    let file = open_log_for_read(path)?;
    let len = file
        .metadata()
        .map_err(AuditError::io("inspect", path))?
        .len();
    // Ask for one more line, in case the last one is partial.
    let mut got = last_lines(&file, path, len, n.saturating_add(1), TAIL_MAX_BYTES)?;
    let mut end = len;
    if got.unterminated
        && let Some(partial) = got.lines.pop()
    {
        end -= partial.len() as u64;
    }
    let skip = got.lines.len().saturating_sub(n);
    let lines = got.lines[skip..]
        .iter()
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect();
    Ok(Tail { lines, end })
}

/// Calls `on_line` for every complete line appended after `from_offset`,
/// polling every `poll`, until `stop` is set; returns the offset reached.
/// Refuses a log that shrinks (append-only logs never do).
pub fn follow(
    path: &Path,
    from_offset: u64,
    stop: &AtomicBool,
    poll: Duration,
    mut on_line: impl FnMut(&str),
) -> Result<u64, AuditError> {
    let file = open_log_for_read(path)?;
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
        sleep_unless_stopped(poll, stop);
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
