//! Copies of the audit records for fleet logging: journald's native
//! protocol or syslog (RFC 5424 with structured data), each one datagram on
//! a local Unix socket, so existing collectors (journald forwarding,
//! rsyslog, Vector, Fluent Bit) can ship them to one store.
//!
//! It decides what a copy says: the record's exact line (so a collector
//! can re-verify the chain) plus its `seq`, its own hash and `prev` as
//! separate fields, which makes every copy a chain head kept off this
//! machine. It refuses nothing: the local hash-chained file stays the source
//! of truth, so a sink that cannot be reached is logged (once per outage)
//! and never blocks or refuses a decision.

use std::io;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::Deserialize;

use super::line_hash;

/// journald's native socket.
pub const JOURNALD_SOCKET: &str = "/run/systemd/journal/socket";

/// The local syslog socket.
pub const SYSLOG_SOCKET: &str = "/dev/log";

/// RFC 5424 structured-data id; 32473 is the enterprise number reserved
/// for examples (RFC 5612), as this id names no registered organisation.
pub const SD_ID: &str = "exec-approvals@32473";

/// How long one datagram may take before the copy is given up.
const SEND_TIMEOUT: Duration = Duration::from_millis(200);

/// Which protocol a sink speaks, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SinkKind {
    /// journald's native protocol on [`JOURNALD_SOCKET`] (or the path).
    Journald(PathBuf),
    /// RFC 5424 on [`SYSLOG_SOCKET`] (or the path).
    Syslog(PathBuf),
}

impl FromStr for SinkKind {
    type Err = String;

    /// `journald`, `syslog`, or either followed by `:PATH` for another
    /// socket.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, path) = match text.split_once(':') {
            Some((name, path)) if !path.is_empty() => (name, Some(PathBuf::from(path))),
            Some(_) => return Err(format!("`{text}`: the socket path after `:` is empty")),
            None => (text, None),
        };
        match name {
            "journald" => Ok(Self::Journald(
                path.unwrap_or_else(|| JOURNALD_SOCKET.into()),
            )),
            "syslog" => Ok(Self::Syslog(path.unwrap_or_else(|| SYSLOG_SOCKET.into()))),
            other => Err(format!(
                "unknown audit sink `{other}`, expected journald or syslog (optionally :SOCKET)"
            )),
        }
    }
}

/// A sink: a connected datagram socket and the protocol to speak on it.
#[derive(Debug)]
pub struct AuditSink {
    kind: SinkKind,
    socket: Mutex<Option<UnixDatagram>>,
    hostname: String,
    /// Set while the sink is failing, so an outage is logged once.
    failing: AtomicBool,
}

impl AuditSink {
    /// A sink of `kind`; the socket is connected on first use (and again
    /// after a failure), so a collector started later is picked up.
    pub fn new(kind: SinkKind) -> Self {
        Self {
            kind,
            socket: Mutex::new(None),
            hostname: nix::unistd::gethostname()
                .ok()
                .and_then(|name| name.into_string().ok())
                .filter(|name| !name.is_empty())
                .unwrap_or_else(|| "-".to_owned()),
            failing: AtomicBool::new(false),
        }
    }

    /// The socket this sink writes to, for messages.
    pub fn socket_path(&self) -> &Path {
        match &self.kind {
            SinkKind::Journald(path) | SinkKind::Syslog(path) => path,
        }
    }

    /// Sends one datagram per line of `lines` (newline-separated records as
    /// written to the log); failures are logged, never returned.
    pub(crate) fn send(&self, lines: &[u8]) {
        for line in lines.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let datagram = match &self.kind {
                SinkKind::Journald(_) => journald_datagram(line),
                SinkKind::Syslog(_) => syslog_datagram(line, &self.hostname),
            };
            match self.send_one(&datagram) {
                Ok(()) => {
                    if self.failing.swap(false, Ordering::Relaxed) {
                        tracing::info!(socket = %self.socket_path().display(), "audit sink reachable again");
                    }
                }
                Err(error) => {
                    if !self.failing.swap(true, Ordering::Relaxed) {
                        tracing::error!(socket = %self.socket_path().display(), %error, "cannot send audit records to the sink; the local log still has them");
                    }
                }
            }
        }
    }

    fn send_one(&self, datagram: &[u8]) -> io::Result<()> {
        let mut socket = self.socket.lock().unwrap_or_else(|e| e.into_inner());
        if socket.is_none() {
            let fresh = UnixDatagram::unbound()?;
            fresh.set_write_timeout(Some(SEND_TIMEOUT))?;
            fresh.connect(self.socket_path())?;
            *socket = Some(fresh);
        }
        let sent = socket
            .as_ref()
            .map_or_else(|| Err(io::Error::other("no socket")), |s| s.send(datagram));
        if sent.is_err() {
            // Reconnect next time: the collector may have restarted.
            *socket = None;
        }
        sent.map(drop)
    }
}

/// The fields of a line a copy repeats on its own.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    ts: i64,
    #[serde(default)]
    prev: String,
    #[serde(default)]
    event: String,
    #[serde(default)]
    decision: Option<String>,
    #[serde(default)]
    run_id: Option<String>,
    #[serde(default)]
    agent_id: Option<String>,
}

fn summary(line: &[u8]) -> Summary {
    serde_json::from_slice(line).unwrap_or_default()
}

/// Severity: notice for a refusal, info otherwise.
fn severity(summary: &Summary) -> u8 {
    if summary.decision.as_deref() == Some("deny") {
        5
    } else {
        6
    }
}

/// journald's native protocol: `KEY=value` lines, with the binary-safe
/// form (`KEY\n`, a little-endian u64 length, the bytes, `\n`) for the
/// message, which is the record's exact line.
fn journald_datagram(line: &[u8]) -> Vec<u8> {
    let s = summary(line);
    let mut out = Vec::with_capacity(line.len() + 512);
    let mut field = |key: &str, value: &str| {
        out.extend_from_slice(key.as_bytes());
        out.push(b'=');
        out.extend_from_slice(value.replace('\n', " ").as_bytes());
        out.push(b'\n');
    };
    field("SYSLOG_IDENTIFIER", "ui-bridge");
    field("PRIORITY", &severity(&s).to_string());
    field("SYSLOG_FACILITY", "10");
    field("EXEC_APPROVALS_SEQ", &s.seq.to_string());
    field("EXEC_APPROVALS_TS", &s.ts.to_string());
    field("EXEC_APPROVALS_HASH", &line_hash(line));
    field("EXEC_APPROVALS_PREV", &s.prev);
    field("EXEC_APPROVALS_EVENT", &s.event);
    if let Some(decision) = &s.decision {
        field("EXEC_APPROVALS_DECISION", decision);
    }
    if let Some(run_id) = &s.run_id {
        field("EXEC_APPROVALS_RUN_ID", run_id);
    }
    if let Some(agent_id) = &s.agent_id {
        field("EXEC_APPROVALS_AGENT_ID", agent_id);
    }
    out.extend_from_slice(b"MESSAGE\n");
    out.extend_from_slice(&(line.len() as u64).to_le_bytes());
    out.extend_from_slice(line);
    out.push(b'\n');
    out
}

/// RFC 5424: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD] MSG`, facility
/// authpriv (10), the record's fields as structured data and its exact
/// line as the message.
fn syslog_datagram(line: &[u8], hostname: &str) -> Vec<u8> {
    let s = summary(line);
    let pri = 10 * 8 + u32::from(severity(&s));
    let msgid = if s.event.is_empty() {
        "-".to_owned()
    } else {
        s.event.replace(|c: char| !c.is_ascii_graphic(), "_")
    };
    let mut sd = format!(
        "[{SD_ID} seq=\"{}\" hash=\"{}\" prev=\"{}\" event=\"{}\"",
        s.seq,
        line_hash(line),
        sd_escape(&s.prev),
        sd_escape(&s.event)
    );
    for (name, value) in [
        ("decision", &s.decision),
        ("runId", &s.run_id),
        ("agentId", &s.agent_id),
    ] {
        if let Some(value) = value {
            sd.push_str(&format!(" {name}=\"{}\"", sd_escape(value)));
        }
    }
    sd.push(']');
    let mut out = format!(
        "<{pri}>1 {} {hostname} ui-bridge {} {msgid} {sd} ",
        rfc3339_ms(s.ts),
        std::process::id()
    )
    .into_bytes();
    out.extend_from_slice(line);
    out
}

/// Escapes a structured-data parameter value (RFC 5424 section 6.3.3).
fn sd_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '"' | '\\' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `ms` since the epoch as an RFC 3339 UTC timestamp with milliseconds.
fn rfc3339_ms(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &[u8] = br#"{"v":1,"seq":3,"ts":1795325720123,"prev":"ab","event":"decision","runId":"r\"]1","decision":"deny"}"#;

    #[test]
    fn sink_names_parse_with_and_without_a_socket() {
        assert_eq!(
            "journald".parse(),
            Ok(SinkKind::Journald(JOURNALD_SOCKET.into()))
        );
        assert_eq!(
            "syslog:/tmp/s".parse(),
            Ok(SinkKind::Syslog("/tmp/s".into()))
        );
        assert!("syslog:".parse::<SinkKind>().is_err());
        assert!("kafka".parse::<SinkKind>().is_err());
    }

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(rfc3339_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_ms(951_782_400_001), "2000-02-29T00:00:00.001Z");
        assert_eq!(rfc3339_ms(1_795_325_720_123), "2026-11-22T05:35:20.123Z");
    }

    #[test]
    fn a_syslog_copy_has_escaped_structured_data_and_the_exact_line() {
        let text = String::from_utf8(syslog_datagram(LINE, "host1")).unwrap();
        assert!(
            text.starts_with("<85>1 2026-11-22T05:35:20.123Z host1 ui-bridge "),
            "{text}"
        );
        assert!(
            text.contains(" decision [exec-approvals@32473 seq=\"3\" hash=\""),
            "{text}"
        );
        assert!(text.contains(r#"runId="r\"\]1""#), "{text}");
        assert!(text.ends_with(std::str::from_utf8(LINE).unwrap()), "{text}");
    }

    #[test]
    fn a_journald_copy_carries_the_line_binary_safe_and_the_chain_fields() {
        let datagram = journald_datagram(LINE);
        let text = String::from_utf8_lossy(&datagram);
        assert!(text.contains("EXEC_APPROVALS_SEQ=3\n"), "{text}");
        assert!(
            text.contains(&format!("EXEC_APPROVALS_HASH={}\n", line_hash(LINE))),
            "{text}"
        );
        let mut tail = b"MESSAGE\n".to_vec();
        tail.extend_from_slice(&(LINE.len() as u64).to_le_bytes());
        tail.extend_from_slice(LINE);
        tail.push(b'\n');
        assert!(datagram.ends_with(&tail));
    }

    #[test]
    fn copies_reach_a_datagram_socket_one_per_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.sock");
        let receiver = UnixDatagram::bind(&path).unwrap();
        let sink = AuditSink::new(SinkKind::Syslog(path));
        let mut lines = LINE.to_vec();
        lines.push(b'\n');
        lines.extend_from_slice(LINE);
        lines.push(b'\n');
        sink.send(&lines);
        let mut buf = vec![0u8; 4096];
        for _ in 0..2 {
            let n = receiver.recv(&mut buf).unwrap();
            assert!(buf[..n].ends_with(LINE));
        }
    }
}
