//! The annotation format of the development corpora (`gold` lines): people's verified
//! and corrected records written as gold lines, and a record scored against a gold line
//! field by field as the corpora's README scores them.

mod line;
mod score;

pub use line::{GoldLine, gold_line};
pub use score::{FIELDS, Verdict, score};
