//! Invisible, control and lookalike characters in command text.
//!
//! Decides which characters may appear in a command an agent sends. Refuses C0
//! and C1 controls (except tab and newline), zero-width and bidirectional
//! controls, non-ASCII spaces, Hangul fillers, variation selectors, tag
//! characters and the rest of the Unicode format category: characters that
//! hide or reorder what a human reads in a prompt (openclaw.md section 10,
//! class 24). In a command word (argv[0]) it also refuses every non-ASCII
//! character, because lookalikes such as a Cyrillic `ѕ` in `ѕudo` would let a
//! program borrow a trusted name. Upholds DESIGN.md invariant 3 (nothing not
//! fully understood is auto-allowed) and section 7 (the human sees exactly
//! what will run, with invisible characters escaped).

use std::fmt::Write as _;

/// Why a character was refused, with where it is, so the user can find and
/// remove it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason} {} at byte {offset} is not auto-allowed", codepoint(*.ch))]
pub struct UnicodeRefusal {
    /// The refused character.
    pub ch: char,
    /// Byte offset of the character in the checked text.
    pub offset: usize,
    /// A short phrase naming the kind of character.
    pub reason: &'static str,
}

/// Refused ranges, inclusive, with the reason shown to the user.
///
/// Sorted by start; the table test checks order, disjointness and reasons.
/// Tab (U+0009) and newline (U+000A) are the only controls allowed.
const REFUSED_RANGES: &[(u32, u32, &str)] = &[
    (0x0000, 0x0008, "control character"),
    (0x000B, 0x001F, "control character"),
    (0x007F, 0x009F, "control character"),
    (0x00A0, 0x00A0, "no-break space"),
    (0x00AD, 0x00AD, "soft hyphen"),
    (0x034F, 0x034F, "combining grapheme joiner"),
    (0x0600, 0x0605, "format character"),
    (0x061C, 0x061C, "bidirectional control"),
    (0x06DD, 0x06DD, "format character"),
    (0x070F, 0x070F, "format character"),
    (0x0890, 0x0891, "format character"),
    (0x08E2, 0x08E2, "format character"),
    (0x115F, 0x1160, "hangul filler"),
    (0x1680, 0x1680, "non-ASCII space"),
    (0x17B4, 0x17B5, "invisible vowel"),
    (0x180B, 0x180D, "variation selector"),
    (0x180E, 0x180E, "zero-width character"),
    (0x180F, 0x180F, "variation selector"),
    (0x2000, 0x200A, "non-ASCII space"),
    (0x200B, 0x200D, "zero-width character"),
    (0x200E, 0x200F, "bidirectional control"),
    (0x2028, 0x2029, "line or paragraph separator"),
    (0x202A, 0x202E, "bidirectional control"),
    (0x202F, 0x202F, "no-break space"),
    (0x205F, 0x205F, "non-ASCII space"),
    (0x2060, 0x2060, "zero-width character"),
    (0x2061, 0x2064, "invisible operator"),
    (0x2065, 0x2065, "format character"),
    (0x2066, 0x2069, "bidirectional control"),
    (0x206A, 0x206F, "format character"),
    (0x2800, 0x2800, "blank braille pattern"),
    (0x3000, 0x3000, "non-ASCII space"),
    (0x3164, 0x3164, "hangul filler"),
    (0xFE00, 0xFE0F, "variation selector"),
    (0xFEFF, 0xFEFF, "zero-width character"),
    (0xFFA0, 0xFFA0, "hangul filler"),
    (0xFFF9, 0xFFFB, "format character"),
    (0x110BD, 0x110BD, "format character"),
    (0x110CD, 0x110CD, "format character"),
    (0x13430, 0x1343F, "format character"),
    (0x1BCA0, 0x1BCA3, "format character"),
    (0x1D173, 0x1D17A, "format character"),
    (0xE0000, 0xE007F, "tag character"),
    (0xE0100, 0xE01EF, "variation selector"),
];

/// Refuses text holding any invisible, format, bidi or control character, so
/// that nothing in a command can hide from the person approving it.
pub fn check_text(s: &str) -> Result<(), UnicodeRefusal> {
    for (offset, ch) in s.char_indices() {
        if let Some(reason) = refusal_reason(ch) {
            return Err(UnicodeRefusal { ch, offset, reason });
        }
    }
    Ok(())
}

/// Refuses a command word (argv[0]) with any non-ASCII character, on top of
/// [`check_text`], because lookalike letters let a program pose as another.
pub fn check_command_word(s: &str) -> Result<(), UnicodeRefusal> {
    check_text(s)?;
    match s.char_indices().find(|(_, ch)| !ch.is_ascii()) {
        Some((offset, ch)) => Err(UnicodeRefusal {
            ch,
            offset,
            reason: "non-ASCII character in a command word",
        }),
        None => Ok(()),
    }
}

/// Removes every character [`check_text`] refuses, returning the rest and
/// the first character removed, so that a command hiding an invisible
/// character can still be read for the denylist and the risk rules.
pub fn strip_refused(s: &str) -> (String, Option<char>) {
    let mut first = None;
    let kept = s
        .chars()
        .filter(|&ch| {
            let refused = refusal_reason(ch).is_some();
            if refused && first.is_none() {
                first = Some(ch);
            }
            !refused
        })
        .collect();
    (kept, first)
}

/// Makes every refused character (and tab, newline) visible, so a prompt
/// shows exactly what will run; ordinary letters, including non-ASCII ones,
/// are kept.
///
/// The output is unambiguous: a literal backslash that would read as one of
/// our escapes (`\n`, `\t`, `\r`, `\e`, `\u`, `\\`) is doubled.
pub fn escape_for_display(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            '\\' => {
                let ambiguous = matches!(
                    chars.peek(),
                    Some('n' | 't' | 'r' | 'e' | 'u' | '\\') | None
                );
                out.push_str(if ambiguous { "\\\\" } else { "\\" });
            }
            _ if refusal_reason(ch).is_some() => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{{{:04X}}}", u32::from(ch));
            }
            _ => out.push(ch),
        }
    }
    out
}

/// The reason `ch` is refused by [`check_text`], if it is.
fn refusal_reason(ch: char) -> Option<&'static str> {
    let cp = u32::from(ch);
    if cp < 0x80 {
        // Fast path: printable ASCII, tab and newline are the common case.
        return match ch {
            '\t' | '\n' | ' '..='~' => None,
            _ => Some("control character"),
        };
    }
    REFUSED_RANGES
        .iter()
        .find(|(lo, hi, _)| (*lo..=*hi).contains(&cp))
        .map(|(_, _, reason)| *reason)
}

/// `U+200B` style name of a character for messages.
pub(crate) fn codepoint(ch: char) -> String {
    format!("U+{:04X}", u32::from(ch))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_ranges_are_sorted_disjoint_and_explained() {
        for (lo, hi, reason) in REFUSED_RANGES {
            assert!(lo <= hi, "{lo:#X}..{hi:#X}");
            assert!(!reason.is_empty());
        }
        for pair in REFUSED_RANGES.windows(2) {
            if let [a, b] = pair {
                assert!(a.1 < b.0, "not sorted or overlapping: {pair:?}");
            }
        }
    }

    #[test]
    fn refuses_every_listed_invisible_character() {
        let refused = [
            '\u{0}',
            '\u{7}',
            '\r',
            '\u{1b}',
            '\u{7f}',
            '\u{85}',
            '\u{9f}',
            '\u{a0}',
            '\u{ad}',
            '\u{34f}',
            '\u{61c}',
            '\u{115f}',
            '\u{1160}',
            '\u{1680}',
            '\u{180e}',
            '\u{2000}',
            '\u{200a}',
            '\u{200b}',
            '\u{200c}',
            '\u{200d}',
            '\u{200e}',
            '\u{200f}',
            '\u{202a}',
            '\u{202e}',
            '\u{202f}',
            '\u{205f}',
            '\u{2060}',
            '\u{2066}',
            '\u{2069}',
            '\u{3000}',
            '\u{3164}',
            '\u{fe00}',
            '\u{fe0f}',
            '\u{feff}',
            '\u{ffa0}',
            '\u{e0000}',
            '\u{e0041}',
            '\u{e007f}',
            '\u{e0100}',
            '\u{e01ef}',
            '\u{2028}',
            '\u{2029}',
            '\u{2062}',
        ];
        for ch in refused {
            let text = format!("ls{ch}x");
            let err = check_text(&text).expect_err(&format!("{:04X}", u32::from(ch)));
            assert_eq!((err.ch, err.offset), (ch, 2));
        }
    }

    #[test]
    fn allows_tab_newline_and_ordinary_non_ascii_text() {
        for ok in [
            "echo a\tb\nls",
            "echo héllo",
            "grep 日本 x",
            "echo 🙂",
            "echo ѕudo",
        ] {
            assert_eq!(check_text(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn refuses_cyrillic_lookalike_in_command_word() {
        let err = check_command_word("ѕudo").expect_err("cyrillic s");
        assert_eq!((err.ch, err.offset), ('ѕ', 0));
        assert_eq!(check_command_word("sudo"), Ok(()));
        assert!(check_command_word("ls\u{200b}").is_err());
    }

    #[test]
    fn escapes_refused_characters_and_keeps_letters() {
        let cases = [
            ("ls\u{200b}-la", "ls\\u{200B}-la"),
            ("a\nb\tc\rd\u{1b}[0m", "a\\nb\\tc\\rd\\e[0m"),
            ("héllo 日本", "héllo 日本"),
            ("rm\u{e0041}", "rm\\u{E0041}"),
            ("\u{3164}", "\\u{3164}"),
            ("\u{7}", "\\u{0007}"),
            ("a\\.b", "a\\.b"),
            ("a\\nb", "a\\\\nb"),
            ("a\\", "a\\\\"),
            ("\\u{200B}", "\\\\u{200B}"),
        ];
        for (input, want) in cases {
            assert_eq!(escape_for_display(input), want, "{input:?}");
        }
    }

    #[test]
    fn escaped_text_passes_check_text() {
        let all: String = (0u32..0x3200)
            .chain(0xE0000..0xE0200)
            .filter_map(char::from_u32)
            .collect();
        assert_eq!(check_text(&escape_for_display(&all)), Ok(()));
    }

    #[test]
    fn refusal_message_names_the_code_point_and_offset() {
        let err = check_text("ls\u{200b}").expect_err("zero width");
        assert_eq!(
            err.to_string(),
            "zero-width character U+200B at byte 2 is not auto-allowed"
        );
    }
}
