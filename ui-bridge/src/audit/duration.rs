//! Parsing `--since` durations (`30s`, `15m`, `2h`, `7d`).
//!
//! It refuses anything but a positive decimal count followed by one unit
//! letter: no signs, no fractions, no spaces, no combined forms, no
//! overflow, so a typo never silently widens or narrows a query.

use std::time::Duration;

/// Why a duration was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid duration `{input}`: expected a whole number and a unit, like 30s, 15m, 2h or 7d")]
pub struct DurationError {
    /// What was typed.
    pub input: String,
}

/// Parses `<count><unit>` with unit `s`, `m`, `h` or `d`.
pub fn parse_duration(input: &str) -> Result<Duration, DurationError> {
    let error = || DurationError {
        input: input.to_owned(),
    };
    let unit = input.chars().last().ok_or_else(error)?;
    let seconds_per_unit: u64 = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        _ => return Err(error()),
    };
    let count = &input[..input.len() - unit.len_utf8()];
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error());
    }
    let count: u64 = count.parse().map_err(|_| error())?;
    let seconds = count.checked_mul(seconds_per_unit).ok_or_else(error)?;
    Ok(Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_unit() {
        let cases = [
            ("30s", 30),
            ("15m", 900),
            ("2h", 7200),
            ("7d", 604_800),
            ("0s", 0),
            ("007m", 420),
        ];
        for (input, secs) in cases {
            assert_eq!(
                parse_duration(input),
                Ok(Duration::from_secs(secs)),
                "{input}"
            );
        }
    }

    #[test]
    fn refuses_everything_else() {
        for input in [
            "",
            "s",
            "15",
            "15x",
            "-5m",
            "+5m",
            "1.5h",
            " 5m",
            "5m ",
            "5 m",
            "1h30m",
            "5M",
            "١٥m",
            "99999999999999999999d",
            "213503982334602d",
        ] {
            assert!(parse_duration(input).is_err(), "{input:?}");
        }
    }
}
