//! Text cells a spreadsheet would run as formulas, made inert. A caption is untrusted
//! text, and a CSV cell that begins with `=`, `+`, `-` or `@` (or a tab or carriage
//! return, which some spreadsheets skip before reading one) is evaluated when the file
//! is opened; a leading apostrophe makes the spreadsheet show it as text. Only text cells
//! pass through here: the numbers the exporter writes itself stay numbers.

/// The characters that make a spreadsheet read a cell as a formula.
const TRIGGERS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `text` as a CSV text cell: with a leading `'` when it begins like a formula.
pub(crate) fn text_cell(text: String) -> String {
    if text.starts_with(TRIGGERS) {
        format!("'{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_made_text_and_other_cells_kept() {
        for f in ["=1+2", "+33 1 40", "-2+3", "@SUM(A1)", "\t=1", "\r=1"] {
            assert_eq!(text_cell(f.to_string()), format!("'{f}"));
        }
        for t in ["Aleppo", "", "a = b", "'quoted", "2021-05-04"] {
            assert_eq!(text_cell(t.to_string()), t);
        }
    }
}
