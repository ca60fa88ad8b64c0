//! Log lines and the prompt: the process's log goes to stderr, which is
//! also where the prompt is drawn, so log lines written while a prompt is
//! shown would land in the middle of it (and the next frame would wipe
//! them).
//!
//! It decides when a log line reaches stderr: at once while no prompt is
//! drawn; while one is, lines are held (at most [`HELD_MAX`], the rest
//! counted) and written when the prompt goes away. A line that repeats the
//! one before it (apart from its timestamp) is counted, not written again,
//! and the count is written before the next different line. On a terminal,
//! each line is cut to the terminal's width with `…` rather than left to
//! wrap, so a burst of log lines in a narrow pane takes one row each (the
//! audit log keeps every decision in full; redirect stderr to keep whole
//! log lines). Use [`PromptAwareStderr`] as the `tracing-subscriber` writer.

use std::io::{self, IsTerminal as _, Write};
use std::sync::{Mutex, MutexGuard, PoisonError};

use tracing_subscriber::fmt::MakeWriter;

/// How many log lines are held while a prompt is shown.
pub const HELD_MAX: usize = 500;

/// What the gate knows.
struct Gate {
    /// Whether a prompt is drawn now.
    prompt_shown: bool,
    /// Lines held while it is.
    held: Vec<Vec<u8>>,
    /// Lines dropped because `held` was full.
    dropped: usize,
    /// The last line written or held, without its timestamp.
    last: Vec<u8>,
    /// How many times `last` came again since.
    repeats: usize,
}

/// One gate per process, as there is one stderr.
static GATE: Mutex<Gate> = Mutex::new(Gate {
    prompt_shown: false,
    held: Vec::new(),
    dropped: 0,
    last: Vec::new(),
    repeats: 0,
});

fn gate() -> MutexGuard<'static, Gate> {
    GATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The `tracing-subscriber` writer: stderr, held back while a prompt is drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct PromptAwareStderr;

impl<'a> MakeWriter<'a> for PromptAwareStderr {
    type Writer = LogLine;

    fn make_writer(&'a self) -> Self::Writer {
        LogLine(Vec::new())
    }
}

/// One event's text; handed to the gate when dropped.
#[derive(Debug)]
pub struct LogLine(Vec<u8>);

impl Write for LogLine {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for LogLine {
    fn drop(&mut self) {
        if !self.0.is_empty() {
            gate().accept(std::mem::take(&mut self.0));
        }
    }
}

/// From now on, log lines wait: a prompt is being drawn.
pub(super) fn hold() {
    gate().prompt_shown = true;
}

/// The prompt is gone: writes what was held, and lets lines through again.
pub(super) fn release() {
    let mut gate = gate();
    gate.prompt_shown = false;
    let held = std::mem::take(&mut gate.held);
    let dropped = std::mem::take(&mut gate.dropped);
    let cols = stderr_columns();
    let mut err = io::stderr().lock();
    for line in held {
        let _ = err.write_all(&fit_line(&line, cols));
    }
    if dropped > 0 {
        let _ = writeln!(
            err,
            "({dropped} more log lines were dropped while the prompt was shown)"
        );
    }
    let _ = err.flush();
}

impl Gate {
    /// Writes, holds or counts one line.
    fn accept(&mut self, line: Vec<u8>) {
        let key = without_timestamp(&line);
        if !self.last.is_empty() && key == self.last.as_slice() {
            self.repeats += 1;
            return;
        }
        self.last = key.to_vec();
        if self.repeats > 0 {
            let note = format!("(the line before repeated {} more times)\n", self.repeats);
            self.repeats = 0;
            self.out(note.into_bytes());
        }
        self.out(line);
    }

    fn out(&mut self, line: Vec<u8>) {
        if self.prompt_shown {
            if self.held.len() < HELD_MAX {
                self.held.push(line);
            } else {
                self.dropped += 1;
            }
        } else {
            let _ = io::stderr().write_all(&fit_line(&line, stderr_columns()));
        }
    }
}

/// The terminal's width when stderr is a terminal; `None` for a pipe, a
/// file or the journal, whose lines stay whole.
fn stderr_columns() -> Option<usize> {
    let err = io::stderr();
    if !err.is_terminal() {
        return None;
    }
    rustix::termios::tcgetwinsize(&err)
        .ok()
        .filter(|size| size.ws_col > 0)
        .map(|size| usize::from(size.ws_col))
}

/// `line` with each of its rows cut to `cols` columns, a cut row ending
/// in `…`; unchanged when `cols` is `None`. Colour sequences (`ESC [ … m`)
/// take no columns and are never cut in half; a cut row ends with a reset,
/// so its colour does not run on.
fn fit_line(line: &[u8], cols: Option<usize>) -> Vec<u8> {
    let Some(cols) = cols else {
        return line.to_vec();
    };
    let text = String::from_utf8_lossy(line);
    let mut out = String::with_capacity(text.len());
    for row in text.split_inclusive('\n') {
        let (body, newline) = match row.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (row, ""),
        };
        out.push_str(&fit_row(body, cols));
        out.push_str(newline);
    }
    out.into_bytes()
}

/// One row cut to `cols` columns (see [`fit_line`]).
fn fit_row(row: &str, cols: usize) -> String {
    if visible_width(row) <= cols {
        return row.to_owned();
    }
    let mut out = String::with_capacity(row.len());
    let mut used = 0;
    let mut chars = row.chars();
    while let Some(ch) = chars.next() {
        if ch == '\u{1b}' {
            // A colour sequence: copied whole, no columns.
            out.push(ch);
            out.push_str(&sequence_rest(&mut chars));
            continue;
        }
        let width = super::fit::char_width(ch);
        if used + width + 1 > cols {
            break;
        }
        out.push(ch);
        used += width;
    }
    out.push('…');
    if out.contains('\u{1b}') {
        out.push_str("\u{1b}[0m");
    }
    out
}

/// Columns `row` takes, colour sequences excluded.
fn visible_width(row: &str) -> usize {
    let mut width = 0;
    let mut chars = row.chars();
    while let Some(ch) = chars.next() {
        if ch == '\u{1b}' {
            sequence_rest(&mut chars);
        } else {
            width += super::fit::char_width(ch);
        }
    }
    width
}

/// The rest of an escape sequence after its `ESC`: `[`, parameters, and
/// the final character (`@` to `~`).
fn sequence_rest(chars: &mut std::str::Chars<'_>) -> String {
    let mut rest = String::new();
    for next in chars.by_ref() {
        rest.push(next);
        if next != '[' && ('\u{40}'..='\u{7e}').contains(&next) {
            break;
        }
    }
    rest
}

/// The line after its first word (the timestamp `tracing` starts it with).
fn without_timestamp(line: &[u8]) -> &[u8] {
    match line.iter().position(|&b| b == b' ') {
        Some(at) => &line[at..],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> Gate {
        Gate {
            prompt_shown: true,
            held: Vec::new(),
            dropped: 0,
            last: Vec::new(),
            repeats: 0,
        }
    }

    #[test]
    fn lines_wait_while_the_prompt_is_shown_and_repeats_are_counted() {
        let mut gate = fresh();
        for line in [
            "09:00:01 INFO approval requested id=1\n",
            "09:00:02 INFO hook stderr id=1\n",
            "09:00:03 INFO hook stderr id=1\n",
            "09:00:04 INFO hook stderr id=1\n",
            "09:00:05 INFO approval answered id=1\n",
        ] {
            gate.accept(line.as_bytes().to_vec());
        }
        let held: Vec<String> = gate
            .held
            .iter()
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect();
        assert_eq!(
            held,
            [
                "09:00:01 INFO approval requested id=1\n",
                "09:00:02 INFO hook stderr id=1\n",
                "(the line before repeated 2 more times)\n",
                "09:00:05 INFO approval answered id=1\n",
            ]
        );
    }

    #[test]
    fn lines_are_cut_to_the_terminal_width_with_an_ellipsis() {
        let cut = |line: &str, cols| String::from_utf8(fit_line(line.as_bytes(), cols)).unwrap();
        // Not a terminal: whole.
        let long = "2026-11-26T16:30:08Z  INFO approval requested id=0193 command=make\n";
        assert_eq!(cut(long, None), long);
        // A terminal: one row each, ending in the ellipsis.
        assert_eq!(cut(long, Some(20)), "2026-11-26T16:30:08…\n");
        assert_eq!(cut("fits\n", Some(4)), "fits\n");
        assert_eq!(cut("a\nbcdef\n", Some(3)), "a\nbc…\n");
        // Colour takes no columns, is never split, and is reset after a cut.
        let coloured = "\u{1b}[33m WARN\u{1b}[0m gateway connection failed\n";
        assert_eq!(cut(coloured, Some(40)), coloured);
        assert_eq!(
            cut(coloured, Some(8)),
            "\u{1b}[33m WARN\u{1b}[0m g…\u{1b}[0m\n"
        );
    }

    #[test]
    fn at_most_held_max_lines_wait_and_the_rest_are_counted() {
        let mut gate = fresh();
        for n in 0..HELD_MAX + 7 {
            gate.accept(format!("t INFO line {n}\n").into_bytes());
        }
        assert_eq!(gate.held.len(), HELD_MAX);
        assert_eq!(gate.dropped, 7);
    }
}
