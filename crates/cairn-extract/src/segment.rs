//! Splits a plain-text page into captions: paragraphs separated by blank lines.

use cairn_model::{Segment, Span, fold_whitespace};

/// Splits `text` into paragraphs separated by one or more blank lines (lines holding
/// only whitespace). Each segment's span covers the paragraph without its leading and
/// trailing whitespace; its text has whitespace runs folded to one space.
pub fn segment(text: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let trimmed_start = line.trim_start();
        if trimmed_start.is_empty() {
            if let Some((s, e)) = open.take() {
                out.push(make(text, s, e));
            }
            continue;
        }
        let content_start = line_start + (line.len() - trimmed_start.len());
        let content_end = line_start + line.trim_end().len();
        match &mut open {
            Some((_, e)) => *e = content_end,
            None => open = Some((content_start, content_end)),
        }
    }
    if let Some((s, e)) = open {
        out.push(make(text, s, e));
    }
    out
}

fn make(text: &str, start: usize, end: usize) -> Segment {
    Segment {
        span: Span::new(start, end),
        text: fold_whitespace(&text[start..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expect: &[(&str, [usize; 2])]) {
        let got: Vec<(String, [usize; 2])> = segment(input)
            .into_iter()
            .map(|s| (s.text, s.span.into()))
            .collect();
        let want: Vec<(String, [usize; 2])> =
            expect.iter().map(|(t, s)| (t.to_string(), *s)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn blank_lines_separate() {
        check("one\n\ntwo\n", &[("one", [0, 3]), ("two", [5, 8])]);
    }

    #[test]
    fn several_blank_lines_and_whitespace_only_lines() {
        check(
            "  a b \n \t \n\n\nc\r\nd\r\n",
            &[("a b", [2, 5]), ("c d", [13, 17])],
        );
    }

    #[test]
    fn wrapped_lines_fold_into_one_caption() {
        check("A man\nwalks  past.\n", &[("A man walks past.", [0, 18])]);
    }

    #[test]
    fn empty_and_blank_inputs_have_no_captions() {
        check("", &[]);
        check("\n\n  \n", &[]);
    }

    #[test]
    fn no_trailing_newline() {
        check("x\n\ny", &[("x", [0, 1]), ("y", [3, 4])]);
    }

    #[test]
    fn multibyte_spans_are_bytes() {
        let t = "“é”\n\nñ";
        let segs = segment(t);
        assert_eq!(segs[0].span.slice(t), Some("“é”"));
        assert_eq!(segs[1].span.slice(t), Some("ñ"));
    }
}
