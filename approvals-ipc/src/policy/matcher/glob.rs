//! One allowlist glob, matched component by component without a regex.
//!
//! The syntax is the allowlist's (the same as `globset` with
//! `literal_separator(true)` and brackets and braces made literal): `*`
//! matches any run of characters within one path component, `?` one
//! character, `**` as a whole component any number of components (one or
//! more at the end of a pattern, zero or more elsewhere), and `**` inside a
//! component acts like `*`. A differential test holds it to `globset`.
//!
//! Matching a path costs its length, whatever the number of patterns; the
//! index in [`super::PathMatcher`] only tries the globs whose literal
//! directory prefix the path starts with.

/// A compiled glob over absolute paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathGlob {
    components: Vec<Component>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Component {
    /// A literal component.
    Literal(String),
    /// `*`, `?` and literal runs within one component.
    Pattern(Vec<Token>),
    /// `**` as a whole component.
    AnyComponents,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(char),
    /// `?`
    One,
    /// `*`
    Many,
}

impl PathGlob {
    /// Parses a pattern (already `~`-expanded and case-folded as needed).
    pub(crate) fn parse(pattern: &str) -> Self {
        let components = pattern
            .split('/')
            .map(|part| {
                if part == "**" {
                    return Component::AnyComponents;
                }
                if !part.contains(['*', '?']) {
                    return Component::Literal(part.to_owned());
                }
                let mut tokens: Vec<Token> = Vec::with_capacity(part.len());
                for c in part.chars() {
                    match c {
                        // `**` inside a component is `*`.
                        '*' if tokens.last() == Some(&Token::Many) => {}
                        '*' => tokens.push(Token::Many),
                        '?' => tokens.push(Token::One),
                        c => tokens.push(Token::Literal(c)),
                    }
                }
                Component::Pattern(tokens)
            })
            .collect();
        Self { components }
    }

    /// The leading literal components joined with `/`: only paths under it
    /// can match (`/opt/tool/bin/*` → `/opt/tool/bin`).
    pub(crate) fn literal_prefix(&self) -> String {
        let literals: Vec<&str> = self
            .components
            .iter()
            .map_while(|c| match c {
                Component::Literal(s) => Some(s.as_str()),
                _ => None,
            })
            .collect();
        literals.join("/")
    }

    /// Whether the path (split at `/`) matches.
    pub(crate) fn matches(&self, path: &[&str]) -> bool {
        match_components(&self.components, path)
    }
}

fn match_components(pattern: &[Component], path: &[&str]) -> bool {
    let Some((first, rest)) = pattern.split_first() else {
        return path.is_empty();
    };
    match first {
        Component::AnyComponents if rest.is_empty() => !path.is_empty(),
        Component::AnyComponents => {
            (0..=path.len()).any(|skip| match_components(rest, &path[skip..]))
        }
        Component::Literal(lit) => {
            path.first().is_some_and(|c| c == lit) && match_components(rest, &path[1..])
        }
        Component::Pattern(tokens) => {
            path.first().is_some_and(|c| match_tokens(tokens, c))
                && match_components(rest, &path[1..])
        }
    }
}

/// Wildcard matching within one component (linear with one backtrack point).
fn match_tokens(tokens: &[Token], text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let (mut t, mut c) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while c < chars.len() {
        match tokens.get(t) {
            Some(Token::Many) => {
                star = Some((t, c));
                t += 1;
            }
            Some(Token::One) => {
                t += 1;
                c += 1;
            }
            Some(Token::Literal(l)) if *l == chars[c] => {
                t += 1;
                c += 1;
            }
            _ => match star {
                Some((st, sc)) => {
                    t = st + 1;
                    c = sc + 1;
                    star = Some((st, sc + 1));
                }
                None => return false,
            },
        }
    }
    tokens[t..].iter().all(|tok| *tok == Token::Many)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn matches(pattern: &str, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        PathGlob::parse(pattern).matches(&parts)
    }

    fn globset_matches(pattern: &str, path: &str) -> bool {
        globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(false)
            .build()
            .map(|g| g.compile_matcher().is_match(path))
            .unwrap_or(false)
    }

    #[test]
    fn table_agrees_with_globset() {
        for (pattern, path) in [
            ("/usr/bin/*", "/usr/bin/git"),
            ("/usr/bin/*", "/usr/bin/x/y"),
            ("/opt/**/bin/tool", "/opt/bin/tool"),
            ("/opt/**/bin/tool", "/opt/a/b/bin/tool"),
            ("/opt/**", "/opt"),
            ("/opt/**", "/opt/a/b"),
            ("/opt/a**b", "/opt/ab"),
            ("/opt/a**b", "/opt/a/b"),
            ("/usr/bin/python?", "/usr/bin/python3"),
            ("/usr/bin?git", "/usr/bin/git"),
            ("/a/*x*y", "/a/xxy"),
            ("/a/*", "/a/"),
        ] {
            assert_eq!(
                matches(pattern, path),
                globset_matches(pattern, path),
                "{pattern} vs {path}"
            );
        }
    }

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("a".to_owned()),
            Just("b".to_owned()),
            Just("ab".to_owned()),
            Just("*".to_owned()),
            Just("?".to_owned()),
            Just("**".to_owned()),
            Just("/".to_owned()),
        ]
    }

    proptest! {
        #[test]
        fn agrees_with_globset(
            pattern in prop::collection::vec(piece(), 1..8),
            path in prop::collection::vec(prop_oneof![Just("a"), Just("b"), Just("/")], 0..10),
        ) {
            let pattern = format!("/{}", pattern.concat());
            let path = format!("/{}", path.concat());
            prop_assert_eq!(matches(&pattern, &path), globset_matches(&pattern, &path), "{} vs {}", pattern, path);
        }
    }
}
