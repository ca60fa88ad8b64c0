//! Risk: how much damage a request could do, with the reasons, for the
//! human who approves it and for the audit log.
//!
//! Risk never allows anything; it decides only what the prompt says. Each
//! built-in rule (a const table, one reason per row) looks at one command, a
//! whole pipeline, or the raw shell text; the level is the highest matched.
//! Privilege and dispatch wrappers (`sudo`, `doas`, `env`, `nice` …) are
//! looked through, so `sudo rm -rf /` is as critical as `rm -rf /`. When
//! raw text is given it is also read crudely (split on `|`, `;`, `&&` …,
//! quotes dropped), so text the shell analysis refused, or a script hidden in
//! `sh -c '…'`, still gets a level. Upholds DESIGN.md section 6 (Risk).

mod rules;

#[cfg(test)]
mod tests;

/// How much damage a request could do; ordered, so the max is the level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RiskLevel {
    /// Nothing notable.
    #[default]
    Low,
    /// Reaches the network or rewrites history; recoverable.
    Medium,
    /// Privileged, recursive or system-wide; hard to undo.
    High,
    /// Destroys a system or runs code from the internet.
    Critical,
}

/// A level with the reasons that produced it, de-duplicated, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Risk {
    /// The highest level of any matched rule; `low` when none matched.
    pub level: RiskLevel,
    /// One reason per matched rule, first match first.
    pub reasons: Vec<String>,
}

impl Risk {
    fn add(&mut self, rule: &rules::Rule) {
        let (level, reason) = (rule.level, rule.reason);
        tracing::debug!(rule = rule.id, ?level, "risk rule matched");
        self.level = self.level.max(level);
        if !self.reasons.iter().any(|r| r == reason) {
            self.reasons.push(reason.to_owned());
        }
    }
}

impl Risk {
    /// Raises this risk to `other`'s level and adds its reasons, so the
    /// higher of two readings of one command wins.
    pub fn merge(&mut self, other: Risk) {
        self.level = self.level.max(other.level);
        for reason in other.reasons {
            if !self.reasons.contains(&reason) {
                self.reasons.push(reason);
            }
        }
    }

    /// Records that the command holds an invisible or format character
    /// (`ch`, the first one): at least `medium`, with a reason that names it,
    /// because such a character hides part of the command from the reader.
    pub fn note_hidden(&mut self, ch: char) {
        self.level = self.level.max(RiskLevel::Medium);
        let reason = format!(
            "holds an invisible or format character ({}); risk was also assessed without it",
            crate::policy::unicode::codepoint(ch)
        );
        if !self.reasons.contains(&reason) {
            self.reasons.push(reason);
        }
    }
}

/// `argv` and each argv a privilege or dispatch wrapper in it would run
/// (`sudo rm -rf /` gives itself and `rm -rf /`), for salvage.
pub(crate) fn wrapper_layers(argv: &[String]) -> Vec<Vec<String>> {
    rules::unwrap_layers(argv)
        .into_iter()
        .map(<[String]>::to_vec)
        .collect()
}

/// The basename of a command word.
pub(crate) fn base_name(arg0: &str) -> &str {
    rules::base(arg0)
}

/// Assesses `pipelines` (each the argv of its commands, wrappers already
/// unwrapped) and, when given, the raw shell text.
pub fn assess(pipelines: &[Vec<Vec<String>>], raw_text: Option<&str>) -> Risk {
    let mut risk = Risk::default();
    for pipeline in pipelines {
        assess_pipeline(pipeline, &mut risk);
    }
    if let Some(text) = raw_text {
        for rule in rules::RULES {
            if let rules::Matcher::Text(f) = rule.matcher
                && f(text)
            {
                risk.add(rule);
            }
        }
        for pipeline in crude_pipelines(text) {
            assess_pipeline(&pipeline, &mut risk);
        }
    }
    risk
}

/// Adds to `risk` what the rules find in one pipeline: the argv of each of
/// its commands, wrappers already unwrapped.
pub(crate) fn assess_pipeline<A: AsRef<[String]>>(pipeline: &[A], risk: &mut Risk) {
    // Each command, and what privilege or dispatch wrappers would run, as
    // layers with argv[0] reduced to its basename, once for all rules.
    let mut named = rules::Named::default();
    for (command, argv) in pipeline.iter().enumerate() {
        named.push(command, argv.as_ref());
    }
    for rule in rules::RULES {
        let hit = match rule.matcher {
            rules::Matcher::Command(f) => named.layers().any(|(_, argv)| f(argv)),
            rules::Matcher::Pipeline(f) => f(&named),
            rules::Matcher::Text(_) => false,
        };
        if hit {
            risk.add(rule);
        }
    }
}

/// A crude reading of shell text: quotes dropped, split into pipelines on
/// `;`, `&&`, `||`, `&`, newlines, parentheses, braces and substitutions,
/// then on `|`, then on whitespace. Only for risk, never for a decision.
fn crude_pipelines(text: &str) -> Vec<Vec<Vec<String>>> {
    let cleaned: String = text
        .replace("${HOME}", "$HOME")
        .chars()
        .map(|c| match c {
            '\'' | '"' | '\\' => ' ',
            ';' | '\n' | '(' | ')' | '`' | '{' | '}' => ';',
            _ => c,
        })
        .collect();
    let cleaned = cleaned
        .replace("&&", ";")
        .replace("||", ";")
        .replace("$;", ";");
    cleaned
        .split([';', '&'])
        .map(|seg| {
            seg.split('|')
                .map(|cmd| {
                    cmd.split_whitespace()
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                })
                .filter(|argv| !argv.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|p| !p.is_empty())
        .collect()
}
