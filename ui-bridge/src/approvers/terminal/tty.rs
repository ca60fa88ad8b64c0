//! The terminal the prompt is drawn on and read from, and the guard that
//! gives it back.
//!
//! It decides where the prompt goes (stderr when it is a terminal, else
//! `/dev/tty`; never stdout, which carries a command's output) and how keys
//! are read: while a prompt is shown the terminal is in a raw-ish mode (no
//! echo, no line buffering, no signal keys, so Ctrl-C arrives as a key;
//! output processing stays on) on the alternate screen, and pending type-ahead
//! is discarded so a key pressed before the prompt cannot answer it. It
//! refuses to start when stdin is not a terminal. Every exit path — normal
//! end, shutdown, panic unwinding, Ctrl-C — restores the saved mode through
//! [`Session`]'s `Drop`.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use nix::errno::Errno;
use nix::sys::termios::{
    self, FlushArg, InputFlags, LocalFlags, SetArg, SpecialCharacterIndices, Termios,
};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::render::{FALLBACK_SIZE, Size};

/// Enter the alternate screen and hide the cursor.
const ENTER: &str = "\x1b[?1049h\x1b[?25l";
/// Turn line wrapping back on, show the cursor and leave the alternate screen.
const LEAVE: &str = "\x1b[?7h\x1b[?25h\x1b[?1049l";
/// Reset what a process writing to the terminal could have changed (text
/// attributes, character set, scroll region), turn the terminal's own line
/// wrapping off (rows are wrapped between words before they are drawn; a
/// row the terminal would still find too long is cut, never wrapped
/// mid-word), then cursor home and clear the screen: every frame is drawn in
/// full on a clean screen, so a fake prompt painted over the real one does
/// not survive the next frame.
pub(super) const CLEAR: &str = "\x1b[0m\x1b(B\x1b[r\x1b[?7l\x1b[H\x1b[2J";

/// Why there is no terminal to prompt on.
#[derive(Debug, thiserror::Error)]
pub enum TtyError {
    /// Keys are read from stdin, so it must be a terminal.
    #[error("stdin is not a terminal")]
    NotATerminal,
    /// The terminal could not be opened, read or configured.
    #[error("{op}: {source}")]
    Io {
        /// What failed.
        op: &'static str,
        /// What the operating system said.
        source: io::Error,
    },
}

/// The terminal of the terminal approver: keys from stdin, drawing on
/// stderr or `/dev/tty`.
#[derive(Debug)]
pub struct Tty {
    input: Arc<OwnedFd>,
    out: File,
    /// Whether `out` is stderr, where the log goes too.
    on_stderr: bool,
}

impl Tty {
    /// This process's terminal; fails when stdin is not a terminal.
    pub fn open() -> Result<Tty, TtyError> {
        let stdin = io::stdin();
        if !stdin.is_terminal() {
            return Err(TtyError::NotATerminal);
        }
        let input = stdin
            .as_fd()
            .try_clone_to_owned()
            .map_err(|source| TtyError::Io {
                op: "duplicating stdin",
                source,
            })?;
        let stderr = io::stderr();
        let out = if stderr.is_terminal() {
            File::from(
                stderr
                    .as_fd()
                    .try_clone_to_owned()
                    .map_err(|source| TtyError::Io {
                        op: "duplicating stderr",
                        source,
                    })?,
            )
        } else {
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/tty")
                .map_err(|source| TtyError::Io {
                    op: "opening /dev/tty",
                    source,
                })?
        };
        Ok(Tty {
            input: Arc::new(input),
            out,
            on_stderr: stderr.is_terminal(),
        })
    }

    /// Enters prompt mode until the returned guard is dropped.
    pub(super) fn session(&mut self) -> Result<Session<'_>, TtyError> {
        let io = |op| {
            move |errno: Errno| TtyError::Io {
                op,
                source: io::Error::from(errno),
            }
        };
        let saved = termios::tcgetattr(self.input.as_fd()).map_err(io("reading terminal mode"))?;
        let mut raw = saved.clone();
        raw.local_flags &=
            !(LocalFlags::ICANON | LocalFlags::ECHO | LocalFlags::ISIG | LocalFlags::IEXTEN);
        raw.input_flags &= !(InputFlags::IXON | InputFlags::ICRNL);
        // Reads return after 0.1 s without input, so the reader can stop.
        raw.control_chars[SpecialCharacterIndices::VMIN as usize] = 0;
        raw.control_chars[SpecialCharacterIndices::VTIME as usize] = 1;
        // TCSAFLUSH also discards type-ahead: no key predates the prompt.
        termios::tcsetattr(self.input.as_fd(), SetArg::TCSAFLUSH, &raw)
            .map_err(io("setting terminal mode"))?;
        let (keys_tx, keys) = mpsc::unbounded_channel();
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (input, stop) = (Arc::clone(&self.input), Arc::clone(&stop));
            std::thread::Builder::new()
                .name("terminal-approver-keys".to_owned())
                .spawn(move || read_keys(&input, &stop, &keys_tx))
        };
        let mut session = Session {
            tty: self,
            saved,
            keys,
            stop,
            reader: None,
        };
        // From here on, `Drop` restores the mode whatever happens.
        session.reader = Some(reader.map_err(|source| TtyError::Io {
            op: "starting the key reader",
            source,
        })?);
        // Log lines wait until the prompt is gone (they would land in it).
        if session.tty.on_stderr {
            super::log_gate::hold();
        }
        session.write(ENTER);
        Ok(session)
    }

    /// The terminal's size now, or [`FALLBACK_SIZE`] when it does not say.
    pub(super) fn size(&self) -> Size {
        match rustix::termios::tcgetwinsize(&self.out) {
            Ok(size) if size.ws_col > 0 && size.ws_row > 0 => Size {
                cols: usize::from(size.ws_col),
                rows: usize::from(size.ws_row),
            },
            Ok(_) => FALLBACK_SIZE,
            Err(error) => {
                tracing::debug!(%error, "cannot read the terminal size");
                FALLBACK_SIZE
            }
        }
    }

    /// Writes a line on the normal screen (outside a session).
    pub(super) fn say(&mut self, line: &str) {
        // Cut, not wrapped: the audit log keeps the whole command.
        let line = super::fit::clip(line, self.size().cols);
        let _ = writeln!(self.out, "{line}").and_then(|()| self.out.flush());
    }
}

/// Key presses read in one go, and when they were read.
#[derive(Debug)]
pub(super) struct Keys {
    /// When the reader got them from the terminal.
    pub(super) read_at: Instant,
    /// The bytes.
    pub(super) bytes: Vec<u8>,
}

/// Reads key presses in chunks until told to stop; one chunk per read,
/// stamped with the time it was read.
fn read_keys(input: &OwnedFd, stop: &AtomicBool, keys: &mpsc::UnboundedSender<Keys>) {
    let mut buf = [0u8; 64];
    while !stop.load(Ordering::Relaxed) {
        match nix::unistd::read(input, &mut buf) {
            Ok(0) | Err(Errno::EINTR | Errno::EAGAIN) => {}
            Ok(read) => {
                let chunk = Keys {
                    read_at: Instant::now(),
                    bytes: buf[..read].to_vec(),
                };
                if keys.send(chunk).is_err() {
                    return;
                }
            }
            Err(error) => {
                tracing::warn!(%error, "cannot read keys from the terminal");
                return;
            }
        }
    }
}

/// Prompt mode; dropping it restores the terminal exactly as it was.
pub(super) struct Session<'t> {
    tty: &'t mut Tty,
    saved: Termios,
    keys: mpsc::UnboundedReceiver<Keys>,
    stop: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
}

impl Session<'_> {
    /// Replaces the screen with `rows`, each placed on its own row by
    /// cursor address (so the last row never scrolls the first away).
    pub(super) fn draw(&mut self, rows: &[String]) {
        let mut frame =
            String::with_capacity(CLEAR.len() + rows.iter().map(String::len).sum::<usize>());
        frame.push_str(CLEAR);
        for (index, row) in rows.iter().enumerate() {
            let _ = write!(frame, "\x1b[{};1H{row}", index + 1);
        }
        self.write(&frame);
    }

    /// The terminal's size now.
    pub(super) fn size(&self) -> Size {
        self.tty.size()
    }

    /// Discards input the terminal holds that the reader has not read yet,
    /// so that only keys pressed after this call can answer.
    pub(super) fn discard_typed_ahead(&mut self) {
        if let Err(error) = termios::tcflush(self.tty.input.as_fd(), FlushArg::TCIFLUSH) {
            tracing::debug!(%error, "cannot discard typed-ahead input");
        }
    }

    /// The next chunk of key presses; pends forever once the reader stopped.
    pub(super) async fn next_keys(&mut self) -> Keys {
        match self.keys.recv().await {
            Some(keys) => keys,
            None => std::future::pending().await,
        }
    }

    fn write(&mut self, text: &str) {
        let out = &mut self.tty.out;
        if let Err(error) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            tracing::debug!(%error, "cannot draw on the terminal");
        }
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Joined before the mode is restored: in the saved (line) mode a
        // pending read would wait for a whole line. The reader wakes within
        // 0.1 s (VTIME) and sees the flag.
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        self.write(LEAVE);
        let restored = termios::tcsetattr(self.tty.input.as_fd(), SetArg::TCSAFLUSH, &self.saved);
        let _ = termios::tcflush(self.tty.input.as_fd(), FlushArg::TCIFLUSH);
        super::log_gate::release();
        if let Err(error) = restored {
            tracing::error!(%error, "cannot restore the terminal mode; run `stty sane`");
        }
    }
}
