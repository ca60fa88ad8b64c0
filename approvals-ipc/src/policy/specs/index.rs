//! Each option table set of every spec indexed once, so reading an option
//! costs a hash or binary search, not a scan of git's thousand rows.
//!
//! Answers exactly what a scan of the rows in table order would: the
//! first row with a spelling wins among equal spellings, and every hit
//! keeps its position so ties and candidate lists come out in table order.

use std::sync::LazyLock;

use super::families::ALL;
use super::types::{Opt, Spec};

/// The options of one table set, indexed.
#[derive(Debug, Default)]
pub(super) struct Index {
    /// (long name without `--`, position, row), sorted by name, then
    /// position.
    longs: Vec<(&'static str, usize, &'static Opt)>,
    /// Short letter → (position, row) of its first row.
    shorts: foldhash::HashMap<char, (usize, &'static Opt)>,
    /// The first `-#` row (any digit), with its position.
    digits: Option<(usize, &'static Opt)>,
}

/// A long spelling that matched: its row, position, name, and whether the
/// match was through `--no-` negation.
pub(super) type LongHit = (usize, &'static Opt, &'static str, bool);

impl Index {
    pub(super) fn build(tables: &'static [&'static [Opt]]) -> Self {
        let mut index = Index::default();
        let mut position = 0;
        for row in tables.iter().flat_map(|t| t.iter()) {
            for name in row.names {
                position += 1;
                if let Some(long) = name.strip_prefix("--") {
                    index.longs.push((long, position, row));
                    continue;
                }
                let mut letters = name.chars().skip(1);
                match (letters.next(), letters.next()) {
                    (Some('#'), None) => {
                        index.digits.get_or_insert((position, row));
                    }
                    (Some(c), None) => {
                        index.shorts.entry(c).or_insert((position, row));
                    }
                    _ => {}
                }
            }
        }
        index.longs.sort_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)));
        index
    }

    /// Whether no option is indexed.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.longs.is_empty() && self.shorts.is_empty() && self.digits.is_none()
    }

    /// The first row that has short letter `c` (a digit also matches `-#`).
    pub(super) fn short(&self, c: char) -> Option<&'static Opt> {
        let letter = self.shorts.get(&c).copied();
        let digit = self.digits.filter(|_| c.is_ascii_digit());
        match (letter, digit) {
            (Some(a), Some(b)) => Some(if a.0 < b.0 { a.1 } else { b.1 }),
            (a, b) => a.or(b).map(|(_, row)| row),
        }
    }

    /// The first row (by position) spelled exactly `--name`.
    pub(super) fn exact(&self, name: &str) -> Option<(usize, &'static Opt)> {
        let at = self.longs.partition_point(|(l, _, _)| *l < name);
        self.longs
            .get(at)
            .filter(|(l, _, _)| *l == name)
            .map(|(_, position, row)| (*position, *row))
    }

    /// Every long spelling that starts with `prefix`, marked `negated`.
    pub(super) fn starting_with(&self, prefix: &str, negated: bool, out: &mut Vec<LongHit>) {
        let at = self.longs.partition_point(|(l, _, _)| *l < prefix);
        for (l, position, row) in &self.longs[at..] {
            if !l.starts_with(prefix) {
                break;
            }
            out.push((*position, row, l, negated));
        }
    }
}

/// The indexes of one spec: its global options and each subcommand's.
#[derive(Debug, Default)]
pub(super) struct SpecIndex {
    /// The spec's own option tables.
    pub global: Index,
    /// Each subcommand's, in the order of `spec.subs`.
    pub subs: Vec<Index>,
}

/// The indexes of `spec`, by family; an empty one (every option unknown,
/// so asked) for a spec that is not in [`ALL`]. Keyed by name, not by
/// address: a `const` spec's tables may live at several addresses.
pub(super) fn of(spec: &Spec) -> &'static SpecIndex {
    static EMPTY: LazyLock<SpecIndex> = LazyLock::new(SpecIndex::default);
    INDEXES.get(spec.family).unwrap_or(&EMPTY)
}

/// Every spec's indexes, by family.
static INDEXES: LazyLock<foldhash::HashMap<&'static str, SpecIndex>> = LazyLock::new(|| {
    let mut indexes = foldhash::HashMap::default();
    for spec in ALL {
        indexes.entry(spec.family).or_insert_with(|| SpecIndex {
            global: Index::build(spec.opts),
            subs: spec.subs.iter().map(|s| Index::build(s.opts)).collect(),
        });
    }
    indexes
});

#[cfg(test)]
mod tests {
    #[test]
    fn every_spec_is_indexed_with_every_subcommand() {
        for spec in super::ALL {
            let index = super::of(spec);
            assert_eq!(index.subs.len(), spec.subs.len(), "{}", spec.family);
            let rows: usize = spec.opts.iter().map(|t| t.len()).sum();
            assert!(rows == 0 || !index.global.is_empty(), "{}", spec.family);
        }
    }
}
