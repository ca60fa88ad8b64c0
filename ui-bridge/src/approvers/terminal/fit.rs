//! Fitting prompt text to the terminal: word wrapping and display widths.
//!
//! It decides where a line breaks: after a space, never inside a word,
//! unless one word alone is wider than the screen (then it is cut at the
//! screen's edge, since hiding part of it would hide what will run). Widths
//! are over-estimated rather than under-estimated (every character of the
//! wide East Asian and emoji blocks counts two columns), so a row never
//! reaches past the edge, where the terminal would wrap it on its own.

/// Columns `ch` takes on a terminal; wide blocks count two.
pub(super) fn char_width(ch: char) -> usize {
    let wide = matches!(u32::from(ch),
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD);
    if wide { 2 } else { 1 }
}

/// Columns `text` takes.
pub(super) fn width(text: &str) -> usize {
    text.chars().map(char_width).sum()
}

/// `text` cut to at most `cols` columns; a cut line ends in `…`.
pub(super) fn clip(text: &str, cols: usize) -> String {
    if width(text) <= cols {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = char_width(ch);
        if used + w + 1 > cols {
            break;
        }
        out.push(ch);
        used += w;
    }
    if cols > 0 {
        out.push('…');
    }
    out
}

/// `text` as rows of at most `cols` columns, broken after spaces; rows
/// after the first start with `indent` spaces (dropped when the screen is
/// too narrow for it). Always at least one row.
pub(super) fn wrap(text: &str, cols: usize, indent: usize) -> Vec<String> {
    let cols = cols.max(1);
    let indent = if indent + 10 <= cols { indent } else { 0 };
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut used = 0;
    let mut room = cols;
    for chunk in text.split_inclusive(' ') {
        let word = chunk.trim_end_matches(' ');
        let spaces = chunk.len() - word.len();
        let word_width = width(word);
        if used > 0 && used + word_width > room {
            rows.push(finish(&mut row));
            row.push_str(&" ".repeat(indent));
            used = 0;
            room = cols - indent;
        }
        // A word wider than a whole row is cut at the edge.
        for ch in word.chars() {
            let w = char_width(ch);
            if used + w > room && used > 0 {
                rows.push(finish(&mut row));
                row.push_str(&" ".repeat(indent));
                used = 0;
                room = cols - indent;
            }
            row.push(ch);
            used += w;
        }
        // Spaces past the edge are not drawn; the break stands for them.
        let kept = spaces.min(room.saturating_sub(used));
        row.push_str(&" ".repeat(kept));
        used += kept;
    }
    rows.push(finish(&mut row));
    rows
}

/// Takes the row built so far, without trailing spaces.
fn finish(row: &mut String) -> String {
    let done = row.trim_end_matches(' ').to_owned();
    row.clear();
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_after_spaces_and_cuts_only_a_word_wider_than_a_row() {
        let rows = wrap(
            "command:  rm -rf /home/someone/important-directory now",
            30,
            10,
        );
        assert_eq!(
            rows,
            [
                "command:  rm -rf",
                "          /home/someone/import",
                "          ant-directory now",
            ]
        );
        let rows = wrap(
            "command:  printf %s first-word second-word third-word",
            30,
            10,
        );
        assert_eq!(
            rows,
            [
                "command:  printf %s first-word",
                "          second-word",
                "          third-word",
            ]
        );
    }

    #[test]
    fn short_text_is_one_row_and_empty_text_one_empty_row() {
        assert_eq!(wrap("git status", 60, 10), vec!["git status"]);
        assert_eq!(wrap("", 60, 10), vec![""]);
    }

    #[test]
    fn continuation_rows_are_indented_and_fit() {
        let text = "argv:     [a] [bb] [ccc] [dddd] [eeeee] [ffffff] [ggggggg]";
        let rows = wrap(text, 24, 10);
        assert!(rows.len() > 2, "{rows:?}");
        for row in &rows[1..] {
            assert!(row.starts_with("          ["), "{row:?}");
        }
        for row in &rows {
            assert!(width(row) <= 24, "{row:?}");
        }
    }

    #[test]
    fn wide_characters_count_two_columns() {
        assert_eq!(width("漢字"), 4);
        let rows = wrap("漢字漢字漢字", 5, 0);
        for row in &rows {
            assert!(width(row) <= 5, "{row:?}");
        }
        assert_eq!(rows.concat(), "漢字漢字漢字");
    }

    #[test]
    fn clip_marks_a_cut() {
        assert_eq!(clip("abcdef", 10), "abcdef");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert!(width(&clip("漢字漢字", 5)) <= 5);
    }
}
