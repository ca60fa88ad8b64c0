//! `doctor`: checks a setup for what would make it unsafe or broken, and
//! says how to fix each thing it finds.
//!
//! It decides which settings and file states count as a problem (the exit
//! status is 1 when one is left) and which are only worth a note: the state
//! directory and the approvals file (owner, mode, a symbolic link, a file
//! that does not parse), the socket (live, stale, mode), the token (present,
//! long enough), allowlist entries that trust more than one program (a
//! shell, an interpreter, a wrapper, `*`, a world-writable directory) or
//! nothing (a bare name), safe bins that can never apply, `ask: off` with
//! `security: full`, and an audit log whose chain does not verify. With
//! `fix` it repairs only what cannot lose anything: modes, and a socket
//! nothing answers on. It never rewrites the approvals file, never follows
//! a symbolic link, and never changes an owner.
//!
//! Both binaries run the same checks; `node-host doctor` adds a gateway
//! reachability check of its own ([`Check::Gateway`]).

mod files;
mod policy;

use std::path::{Path, PathBuf};

use serde::Serialize;

/// What a doctor run looks at, resolved from the command line.
#[derive(Debug, Clone)]
pub struct DoctorOptions {
    /// The approvals file.
    pub approvals_path: PathBuf,
    /// Why it is this file (`--approvals`, a variable, an existing file),
    /// so the report can say so.
    pub approvals_source: approvals_ipc::approvals::PathSource,
    /// The socket, overriding the file's `socket.path`.
    pub socket: Option<PathBuf>,
    /// The home directory, for `~` in paths and patterns.
    pub home: Option<PathBuf>,
    /// The host's `PATH`, where safe bins are looked up.
    pub path_env: Option<std::ffi::OsString>,
    /// Repair what is safe to repair (modes, a stale socket).
    pub fix: bool,
}

/// Which area a finding belongs to; stable names for `--json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// The directory holding the approvals file.
    StateDir,
    /// The approvals file itself.
    ApprovalsFile,
    /// The bridge socket.
    Socket,
    /// The socket token in the approvals file.
    Token,
    /// An allowlist entry.
    Allowlist,
    /// A safe bin.
    SafeBins,
    /// `ask: off` together with `security: full`.
    AskOffFull,
    /// The audit log.
    AuditLog,
    /// The gateway a node joins.
    Gateway,
}

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Something is wrong or unsafe; doctor exits 1 while one is unfixed.
    Problem,
    /// Worth knowing, nothing wrong (no bridge running, no log yet).
    Note,
}

/// One thing doctor found: what, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// The area.
    pub check: Check,
    /// Problem or note.
    pub severity: Severity,
    /// The file, socket, entry or agent concerned.
    pub subject: String,
    /// What is wrong, in words a user can act on.
    pub problem: String,
    /// How to fix it.
    pub fix: String,
    /// What `--fix` did about it, when it repaired it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed: Option<String>,
}

impl Finding {
    /// A problem, not yet fixed.
    pub fn problem(
        check: Check,
        subject: impl Into<String>,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            check,
            severity: Severity::Problem,
            subject: subject.into(),
            problem: problem.into(),
            fix: fix.into(),
            fixed: None,
        }
    }

    /// A note: nothing is wrong.
    pub fn note(
        check: Check,
        subject: impl Into<String>,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Note,
            ..Self::problem(check, subject, problem, fix)
        }
    }

    /// Whether this finding still makes the setup unhealthy.
    pub fn is_open_problem(&self) -> bool {
        self.severity == Severity::Problem && self.fixed.is_none()
    }
}

/// Everything one doctor run found, in check order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The approvals file checked.
    pub approvals: PathBuf,
    /// The same file and why it was chosen, in `explain --json`'s shape,
    /// so a user checking the wrong file sees why it was that one.
    pub approvals_file: ApprovalsFile,
    /// Whether no problem is left (fixed ones do not count).
    pub ok: bool,
    /// The findings.
    pub findings: Vec<Finding>,
}

/// The approvals file a report is about, and why it is that one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ApprovalsFile {
    /// The file.
    pub path: PathBuf,
    /// A short word for the reason (`flag`, `existing-openclaw`, …).
    pub source: &'static str,
    /// The reason in words.
    pub why: &'static str,
}

impl Report {
    /// Adds findings (from a check of a caller's own, such as the gateway)
    /// and recomputes `ok`.
    pub fn extend(&mut self, findings: impl IntoIterator<Item = Finding>) {
        self.findings.extend(findings);
        self.ok = !self.findings.iter().any(Finding::is_open_problem);
    }

    /// The report for people: one block per finding, then a summary line.
    pub fn render(&self) -> String {
        use approvals_ipc::policy::unicode::escape_for_display as shown;
        let mut out = format!(
            "doctor: checking {} ({})\n",
            shown(&self.approvals.display().to_string()),
            self.approvals_file.why
        );
        for f in &self.findings {
            let label = match (f.severity, &f.fixed) {
                (Severity::Note, _) => "note",
                (Severity::Problem, Some(_)) => "fixed",
                (Severity::Problem, None) => "problem",
            };
            out.push_str(&format!(
                "{label}: [{}] {}: {}\n",
                check_name(f.check),
                shown(&f.subject),
                shown(&f.problem)
            ));
            match &f.fixed {
                Some(done) => out.push_str(&format!("  did: {}\n", shown(done))),
                None => out.push_str(&format!("  fix: {}\n", shown(&f.fix))),
            }
        }
        let open = self.findings.iter().filter(|f| f.is_open_problem()).count();
        let fixed = self.findings.iter().filter(|f| f.fixed.is_some()).count();
        if open == 0 {
            out.push_str(&format!(
                "doctor: no problems in {}{}\n",
                self.approvals.display(),
                if fixed > 0 {
                    format!(" ({fixed} fixed)")
                } else {
                    String::new()
                }
            ));
        } else {
            out.push_str(&format!(
                "doctor: {open} problem(s) in {}{}\n",
                self.approvals.display(),
                if fixed > 0 {
                    format!(", {fixed} fixed")
                } else {
                    String::new()
                }
            ));
        }
        out
    }
}

/// The `--json` name of a check, also shown in brackets.
fn check_name(check: Check) -> &'static str {
    match check {
        Check::StateDir => "state-dir",
        Check::ApprovalsFile => "approvals-file",
        Check::Socket => "socket",
        Check::Token => "token",
        Check::Allowlist => "allowlist",
        Check::SafeBins => "safe-bins",
        Check::AskOffFull => "ask-off-full",
        Check::AuditLog => "audit-log",
        Check::Gateway => "gateway",
    }
}

/// Runs every check on the setup of `options.approvals_path`.
pub fn run(options: &DoctorOptions) -> Report {
    let mut findings = Vec::new();
    let state_dir = options
        .approvals_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    files::check_state_dir(&state_dir, options.fix, &mut findings);
    let file = files::check_approvals_file(&options.approvals_path, options.fix, &mut findings);
    if let Some(file) = &file {
        files::check_socket(options, file, &state_dir, &mut findings);
        policy::check_token(file, &options.approvals_path, &mut findings);
        policy::check_allowlists(file, options.home.as_deref(), &mut findings);
        policy::check_safe_bins(file, options.path_env.clone(), &mut findings);
        policy::check_ask_off_full(file, &mut findings);
    }
    files::check_audit_log(
        &crate::audit::default_audit_path(&state_dir),
        options.fix,
        &mut findings,
    );
    let mut report = Report {
        approvals: options.approvals_path.clone(),
        approvals_file: ApprovalsFile {
            path: options.approvals_path.clone(),
            source: options.approvals_source.word(),
            why: options.approvals_source.why(),
        },
        ok: true,
        findings: Vec::new(),
    };
    report.extend(findings);
    report
}

/// The flags both binaries' `doctor` take (`node-host doctor` adds
/// `--gateway`).
#[derive(Debug, Clone, clap::Args)]
pub struct DoctorArgs {
    /// The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json,
    /// else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing
    /// ~/.clawdbot/exec-approvals.json, else an existing
    /// ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]
    #[arg(long, value_name = "FILE")]
    pub approvals: Option<PathBuf>,
    /// The bridge socket [default: socket.path from the approvals file,
    /// else exec-approvals.sock beside it]
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// Print the report as one JSON object: {"approvals",
    /// "approvalsFile": {"path", "source", "why"}, "ok", "findings":
    /// [{"check", "severity", "subject", "problem", "fix", "fixed"?}]}.
    #[arg(long)]
    pub json: bool,
    /// Repair what is safe to repair: modes (chmod 700 directories, 600
    /// files and the socket) and a socket nothing answers on. Each repair
    /// is reported. Owners, symbolic links and file contents are never
    /// changed.
    #[arg(long)]
    pub fix: bool,
}

impl DoctorArgs {
    /// What to check, with defaults filled in from this process's
    /// environment.
    pub fn options(&self) -> Result<DoctorOptions, approvals_ipc::approvals::ApprovalsError> {
        use approvals_ipc::approvals::{PathSource, ResolvedPath};
        let resolved = match &self.approvals {
            Some(path) => ResolvedPath {
                path: path.clone(),
                source: PathSource::Flag,
            },
            None => approvals_ipc::approvals::resolve_approvals_path_from_env()?,
        };
        Ok(DoctorOptions {
            approvals_path: resolved.path,
            approvals_source: resolved.source,
            socket: self.socket.clone(),
            home: std::env::home_dir(),
            path_env: std::env::var_os("PATH"),
            fix: self.fix,
        })
    }
}

/// Prints `report` on stdout (text or `--json`) and returns the exit
/// status: success when no problem is left, else [`crate::exit::Exit::Unhealthy`].
pub fn print(report: &Report, json: bool) -> std::io::Result<crate::exit::Exit> {
    use std::io::Write as _;
    let text = if json {
        serde_json::to_string_pretty(report).map_err(std::io::Error::other)? + "\n"
    } else {
        report.render()
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(if report.ok {
        crate::exit::Exit::Success
    } else {
        crate::exit::Exit::Unhealthy
    })
}
