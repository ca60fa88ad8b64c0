//! Each option table set of every spec indexed once, so reading an option
//! costs a hash or binary search, not a scan of git's thousand rows.
//!
//! Answers exactly what a scan of the rows in table order would: the
//! first row with a spelling wins among equal spellings, and every hit
//! keeps its position so ties and candidate lists come out in table order.

use std::sync::LazyLock;

use super::families::ALL;
use super::types::{Opt, Spec, Sub};

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
    /// The tables themselves, for grammars that read rows their own way
    /// (Go's one-dash names, Info-ZIP's two-letter options).
    tables: &'static [&'static [Opt]],
}

/// A long spelling that matched: its row, position, name, and whether the
/// match was through `--no-` negation.
pub(super) type LongHit = (usize, &'static Opt, &'static str, bool);

impl Index {
    pub(super) fn build(tables: &'static [&'static [Opt]]) -> Self {
        let mut index = Index {
            tables,
            ..Index::default()
        };
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

    /// The first row spelled `-c`, where `-#` is the letter `#` (curl).
    pub(super) fn letter(&self, c: char) -> Option<&'static Opt> {
        match c {
            '#' => self.digits.map(|(_, row)| row),
            _ => self.shorts.get(&c).map(|(_, row)| *row),
        }
    }

    /// Every row, in table order.
    pub(super) fn rows(&self) -> impl Iterator<Item = &'static Opt> {
        self.tables.iter().flat_map(|t| t.iter())
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
    /// Each subcommand name or alias → its position in `spec.subs` (the
    /// first subcommand that has the name).
    pub sub_names: foldhash::HashMap<&'static str, usize>,
    /// Each subcommand's own subcommands (`gh pr view`), in the order of
    /// `spec.subs`: their names and option tables (`global` unused).
    pub nested: Vec<SpecIndex>,
}

/// The indexes of one spec, shared when it is a spec of [`ALL`], built for
/// the occasion otherwise (a test's view of one subcommand as a spec).
pub(super) enum Indexed {
    /// A spec of [`ALL`].
    Shared(&'static SpecIndex),
    /// Any other spec.
    Own(Box<SpecIndex>),
}

impl std::ops::Deref for Indexed {
    type Target = SpecIndex;

    fn deref(&self) -> &SpecIndex {
        match self {
            Indexed::Shared(index) => index,
            Indexed::Own(index) => index,
        }
    }
}

/// The indexes of `spec`. A spec of [`ALL`] (the same reference, or the same
/// rows: a `const` spec may be copied to several addresses) shares the
/// index built once; any other spec gets its own.
pub(super) fn of(spec: &'static Spec) -> Indexed {
    match INDEXES.get(spec.family) {
        Some((registered, index))
            if std::ptr::eq(*registered, spec) || same_spec(registered, spec) =>
        {
            Indexed::Shared(index)
        }
        _ => Indexed::Own(Box::new(SpecIndex::build(spec))),
    }
}

/// Whether two specs have the same option tables and subcommands, row by
/// row.
fn same_spec(a: &Spec, b: &Spec) -> bool {
    same_tables(a.opts, b.opts)
        && a.subs.len() == b.subs.len()
        && a.subs.iter().zip(b.subs).all(|(x, y)| same_sub(x, y))
}

/// Whether two subcommands have the same names, option tables and
/// subcommands, row by row.
fn same_sub(x: &Sub, y: &Sub) -> bool {
    x.names == y.names
        && same_tables(x.opts, y.opts)
        && x.subs.len() == y.subs.len()
        && x.subs.iter().zip(y.subs).all(|(a, b)| same_sub(a, b))
}

/// Whether two table sets hold the same rows in the same order.
fn same_tables(a: &[&[Opt]], b: &[&[Opt]]) -> bool {
    std::ptr::eq(a, b)
        || (a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                std::ptr::eq(*x, *y)
                    || (x.len() == y.len() && x.iter().zip(y.iter()).all(|(r, s)| r.same_row(s)))
            }))
}

impl SpecIndex {
    fn build(spec: &'static Spec) -> Self {
        Self::of_parts(spec.opts, spec.subs)
    }

    /// The index of options `opts` and subcommands `subs`, each subcommand's
    /// own subcommands indexed the same way.
    fn of_parts(opts: &'static [&'static [Opt]], subs: &'static [Sub]) -> Self {
        let mut sub_names = foldhash::HashMap::default();
        for (position, sub) in subs.iter().enumerate() {
            for name in sub.names {
                sub_names.entry(*name).or_insert(position);
            }
        }
        SpecIndex {
            global: Index::build(opts),
            subs: subs.iter().map(|s| Index::build(s.opts)).collect(),
            sub_names,
            nested: subs.iter().map(|s| Self::of_parts(&[], s.subs)).collect(),
        }
    }
}

/// Every spec of [`ALL`] with its indexes, by family.
static INDEXES: LazyLock<foldhash::HashMap<&'static str, (&'static Spec, SpecIndex)>> =
    LazyLock::new(|| {
        let mut indexes = foldhash::HashMap::default();
        for spec in ALL {
            indexes
                .entry(spec.family)
                .or_insert_with(|| (*spec, SpecIndex::build(spec)));
        }
        indexes
    });

#[cfg(test)]
mod tests {
    #[test]
    fn every_spec_is_indexed_with_every_subcommand() {
        for spec in super::ALL {
            let index = super::of(spec);
            assert!(
                matches!(index, super::Indexed::Shared(_)),
                "{}",
                spec.family
            );
            assert_eq!(index.subs.len(), spec.subs.len(), "{}", spec.family);
            let mut levels = vec![(&*index, spec.subs)];
            while let Some((level, subs)) = levels.pop() {
                assert_eq!(level.nested.len(), subs.len(), "{}", spec.family);
                for (nested, sub) in level.nested.iter().zip(subs) {
                    assert_eq!(nested.subs.len(), sub.subs.len(), "{}", spec.family);
                    levels.push((nested, sub.subs));
                }
            }
            let rows: usize = spec.opts.iter().map(|t| t.len()).sum();
            assert!(rows == 0 || !index.global.is_empty(), "{}", spec.family);
        }
    }
}
