//! File names as messages show them and as the archive records them: a name may hold
//! any bytes but a `/` and NUL (a newline, an escape sequence, bytes that are not
//! UTF-8), so messages escape what a terminal would act on, and a file's URI
//! percent-encodes what would otherwise be lost, so that it still names the file.

use std::borrow::Cow;
use std::path::Path;

/// Whether a character would change what a terminal shows beyond itself: control
/// characters (newline, escape...) and the marks that reorder text.
fn acts_on_terminal(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `s` as a message shows it: unchanged when it holds nothing a terminal acts on, else
/// quoted with such characters escaped as Rust writes them (`"a\nb\u{1b}[2J"`).
pub fn quoted(s: &str) -> Cow<'_, str> {
    if s.chars().any(acts_on_terminal) {
        Cow::Owned(format!("{s:?}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// `s` with every character a terminal acts on written as its escape (`\n`, `\u{1b}`)
/// and the rest unchanged: text from the archive (captions, source URIs) printed for a
/// reader, where an escape sequence could clear the screen or forge a line.
pub fn escaped(s: &str) -> Cow<'_, str> {
    if !s.chars().any(acts_on_terminal) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if acts_on_terminal(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A path as a message shows it: [`quoted`], and when it is not UTF-8, quoted with its
/// bytes that are not printable ASCII escaped (`"bad\xffname.txt"`).
pub fn quoted_path(p: &Path) -> String {
    match p.to_str() {
        Some(s) => quoted(s).into_owned(),
        None => {
            use std::os::unix::ffi::OsStrExt;
            format!("\"{}\"", p.as_os_str().as_bytes().escape_ascii())
        }
    }
}

/// The bytes of an absolute path as a `file://` URI: as they are, except bytes that are
/// not UTF-8 and ASCII control characters, which are percent-encoded (`%FF`), so that
/// the URI names the file whatever its name (a name that is plain UTF-8 keeps the URI
/// earlier versions recorded).
pub(crate) fn file_uri_of(abs: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::from("file://");
    let mut bytes = abs.as_os_str().as_bytes();
    while !bytes.is_empty() {
        let (good, bad) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, &[][..]),
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                let n = e.error_len().unwrap_or(rest.len());
                // The prefix is valid UTF-8 by construction.
                (std::str::from_utf8(good).unwrap_or_default(), &rest[..n])
            }
        };
        for c in good.chars() {
            if c.is_ascii_control() {
                out.push_str(&format!("%{:02X}", c as u32));
            } else {
                out.push(c);
            }
        }
        for b in bad {
            out.push_str(&format!("%{b:02X}"));
        }
        bytes = &bytes[good.len() + bad.len()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn names_with_control_characters_are_escaped_and_plain_ones_kept() {
        assert_eq!(quoted("a b/é.txt"), "a b/é.txt");
        let forged = "x\nerror: forged\u{1b}[2K.txt";
        let q = quoted(forged);
        assert!(!q.contains('\n') && !q.contains('\u{1b}'), "{q}");
        assert_eq!(q, "\"x\\nerror: forged\\u{1b}[2K.txt\"");
        let p = Path::new(std::ffi::OsStr::from_bytes(b"/d/bad\xff\xfeutf8.txt"));
        assert_eq!(quoted_path(p), "\"/d/bad\\xff\\xfeutf8.txt\"");
    }

    #[test]
    fn escaped_text_keeps_no_character_a_terminal_acts_on() {
        assert_eq!(
            escaped("Douma, Syria \u{e9}\u{627}"),
            "Douma, Syria \u{e9}\u{627}"
        );
        let forged = "a\u{1b}[2J\nb\u{9b}c\u{7f}\u{202e}d\te";
        let e = escaped(forged);
        assert_eq!(e, "a\\u{1b}[2J\\nb\\u{9b}c\\u{7f}\\u{202e}d\\te");
        assert!(!e.chars().any(acts_on_terminal), "{e}");
    }

    #[test]
    fn file_uris_keep_every_byte_of_the_name() {
        let p = Path::new(std::ffi::OsStr::from_bytes(b"/d/bad\xff\xfeutf8.txt"));
        assert_eq!(file_uri_of(p), "file:///d/bad%FF%FEutf8.txt");
        let q = Path::new(std::ffi::OsStr::from_bytes(b"/d/bad\xfe\xffutf8.txt"));
        assert_ne!(file_uri_of(p), file_uri_of(q));
        assert_eq!(
            file_uri_of(Path::new("/d/a b é.txt")),
            "file:///d/a b é.txt"
        );
        assert_eq!(file_uri_of(Path::new("/d/a\nb")), "file:///d/a%0Ab");
    }
}
