//! Which key presses answer the shown approval.
//!
//! It decides the meaning of one chunk of terminal input: `o` allow once,
//! `a` allow always, `d` deny, Ctrl-C deny-and-stop; `e` unfolds (or folds)
//! the segments and `j`/`k` scroll the details, which answer nothing and so
//! work before the prompt is armed. It refuses anything
//! else, and any chunk of more than one byte (a paste, an arrow key's escape
//! sequence, whose final byte may be a letter), so only a deliberate single
//! key press answers (DESIGN.md section 7; principle 1, fail closed). Keys
//! are case-sensitive: `O` is the second byte of some arrow-key sequences.

use approvals_ipc::ipc::Decision;

/// What a key press asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    /// Answer the shown approval.
    Answer(Decision),
    /// Ctrl-C: deny the shown approval, restore the terminal, stop the process.
    Interrupt,
    /// Show every segment in full, or fold them again.
    Expand,
    /// Scroll the details down one row.
    ScrollDown,
    /// Scroll the details up one row.
    ScrollUp,
}

/// The byte `Ctrl-C` produces once the terminal no longer turns it into SIGINT.
pub(super) const CTRL_C: u8 = 0x03;

/// Every key, sorted by byte, with why it means what it means.
pub(super) const KEYS: &[(u8, Key, &str)] = &[
    (
        CTRL_C,
        Key::Interrupt,
        "ctrl-c must still stop the process, and what it interrupts is denied",
    ),
    (
        b'a',
        Key::Answer(Decision::AllowAlways),
        "allow always, when the approval offers it",
    ),
    (b'd', Key::Answer(Decision::Deny), "deny"),
    (
        b'e',
        Key::Expand,
        "segments folded to fit a short screen can be read in full",
    ),
    (
        b'j',
        Key::ScrollDown,
        "details that do not fit can be scrolled to (vi's down)",
    ),
    (b'k', Key::ScrollUp, "and back (vi's up)"),
    (b'o', Key::Answer(Decision::AllowOnce), "allow once"),
];

/// The key in one chunk of input, or a note saying why it was ignored.
pub(super) fn key_of(chunk: &[u8]) -> Result<Key, &'static str> {
    if chunk.contains(&CTRL_C) {
        return Ok(Key::Interrupt);
    }
    let [byte] = chunk else {
        return Err("ignored: press one key at a time (pastes and escape sequences do not count)");
    };
    KEYS.iter()
        .find(|(key, _, _)| key == byte)
        .map(|&(_, key, _)| key)
        .ok_or("ignored: press o (allow once), a (allow always) or d (deny); e, j, k to read more")
}
