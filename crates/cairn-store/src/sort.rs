//! The spellings of a result order, read in one place for the command line and the
//! API, so that both accept the same ones and both say which they are.

use std::str::FromStr;

use crate::Sort;

impl Sort {
    /// Every spelling [`Sort::from_str`] accepts, in the order messages list them.
    pub const SPELLINGS: [&'static str; 4] = ["relevance", "date", "-date", "date-desc"];
}

/// A result order given in none of [`Sort::SPELLINGS`]; its message lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSort(pub String);

impl std::fmt::Display for UnknownSort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (last, rest) = Sort::SPELLINGS.split_last().unwrap_or((&"", &[]));
        write!(
            f,
            "unknown sort {:?} ({} or {last})",
            self.0,
            rest.join(", ")
        )
    }
}

impl std::error::Error for UnknownSort {}

impl FromStr for Sort {
    type Err = UnknownSort;

    /// `relevance`, `date` (oldest first), `-date` or `date-desc` (newest first).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "relevance" => Ok(Sort::Relevance),
            "date" => Ok(Sort::DateAsc),
            "-date" | "date-desc" => Ok(Sort::DateDesc),
            other => Err(UnknownSort(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_reads_and_others_are_named() {
        for s in Sort::SPELLINGS {
            assert!(s.parse::<Sort>().is_ok(), "{s}");
        }
        assert_eq!("-date".parse::<Sort>(), Ok(Sort::DateDesc));
        assert_eq!("date-desc".parse::<Sort>(), Ok(Sort::DateDesc));
        assert_eq!("date".parse::<Sort>(), Ok(Sort::DateAsc));
        let e = "sideways".parse::<Sort>().unwrap_err();
        let message = e.to_string();
        assert!(message.contains("\"sideways\""), "{message}");
        for s in Sort::SPELLINGS {
            assert!(message.contains(s), "{message} lacks {s}");
        }
    }
}
