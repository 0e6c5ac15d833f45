//! Credit lines as news desks write them, wherever they stand in the caption: `find`
//! gathers candidates (`find`), reads each (`parse`, `words`) against the table of news
//! organisations (`orgs`), merges credits that stand side by side and keeps the best.

mod find;
mod orgs;
mod parse;
mod words;

use cairn_model::{Credit, CreditFlag, Span};

use find::Cand;

/// A credit found in a caption, with the warnings it gives.
#[derive(Debug, Clone)]
pub struct Found {
    pub credit: Credit,
    pub warnings: Vec<String>,
}

/// Whether only punctuation and spaces stand between two credits.
fn adjacent(text: &str, a: Span, b: Span) -> bool {
    b.start >= a.end
        && text[a.end..b.start].chars().all(|c| {
            c.is_whitespace()
                || matches!(
                    c,
                    '-' | '\u{2013}' | '\u{2014}' | '.' | ',' | ';' | ':' | '|'
                )
        })
}

/// Adds a credit standing next to another (`AFP PHOTO/NAME (Photo credit should read
/// NAME/AFP/Getty Images)`): one photograph, its names once, the fuller roles.
fn merge(into: &mut Cand, c: Cand) {
    into.span = Span::new(
        into.span.start.min(c.span.start),
        into.span.end.max(c.span.end),
    );
    let p = &mut into.parsed;
    for name in c.parsed.people {
        if !p
            .people
            .iter()
            .any(|q| q.to_lowercase() == name.to_lowercase())
        {
            p.people.push(name);
        }
    }
    if p.agency.is_none() {
        p.agency = c.parsed.agency.clone();
    }
    if p.distributor.is_none() && c.parsed.distributor != p.agency {
        p.distributor = c.parsed.distributor;
    }
    for f in c.parsed.flags {
        if !p.flags.contains(&f) {
            p.flags.push(f);
        }
    }
    p.known |= c.parsed.known;
    into.marker |= c.marker;
}

fn score(c: &Cand) -> u8 {
    2 * u8::from(c.parsed.known) + u8::from(c.marker) + u8::from(!c.parsed.people.is_empty())
}

/// Finds the credit line of a caption.
pub fn find(text: &str) -> Option<Found> {
    let mut cands = find::candidates(text);
    // A longer reading of the same words wins (a marker inside brackets, a tail inside
    // a marker's reach).
    cands.sort_by_key(|c| (c.span.start, std::cmp::Reverse(c.span.end)));
    let mut kept: Vec<Cand> = Vec::new();
    for c in cands {
        match kept.last_mut() {
            Some(k) if c.span.start < k.span.end => {
                let len = |x: &Cand| x.span.end - x.span.start;
                if (c.marker, len(&c)) > (k.marker, len(k)) {
                    *k = c;
                }
            }
            _ => kept.push(c),
        }
    }
    let mut groups: Vec<Cand> = Vec::new();
    for c in kept {
        match groups.last_mut() {
            Some(g) if adjacent(text, g.span, c.span) => merge(g, c),
            _ => groups.push(c),
        }
    }
    let best = groups.into_iter().max_by_key(score)?;
    let p = best.parsed;
    let mut warnings = Vec::new();
    if p.people.is_empty() && !p.flags.is_empty() {
        let names: Vec<&str> = p.flags.iter().map(CreditFlag::as_str).collect();
        warnings.push(format!(
            "credit names no photographer ({})",
            names.join(", ")
        ));
    }
    Some(Found {
        credit: Credit {
            raw: text[best.span.start..best.span.end].to_string(),
            photographers: p.people,
            agency: p.agency,
            distributor: p.distributor,
            span: best.span,
            flags: p.flags,
        },
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, photographers: &[&str], agency: Option<&str>, distributor: Option<&str>) {
        let f = find(text).unwrap_or_else(|| panic!("no credit in {text:?}"));
        let c = f.credit;
        assert_eq!(c.photographers, photographers, "{text}");
        assert_eq!(c.agency.as_deref(), agency, "{text}");
        assert_eq!(c.distributor.as_deref(), distributor, "{text}");
        assert_eq!(&text[c.span.start..c.span.end], c.raw);
    }

    #[test]
    fn wire_styles() {
        check(
            "A man walks. (Photo by Sameer Al-Doumy/AFP Photo)",
            &["Sameer Al-Doumy"],
            Some("AFP"),
            None,
        );
        check(
            "A man walks. REUTERS/Khalil Ashawi",
            &["Khalil Ashawi"],
            Some("Reuters"),
            None,
        );
        check(
            "A man walks. Khalil Ashawi/Reuters",
            &["Khalil Ashawi"],
            Some("Reuters"),
            None,
        );
        check(
            "A man walks, Tuesday, May 9, 2023. (AP Photo/Ivan Valencia)",
            &["Ivan Valencia"],
            Some("AP"),
            None,
        );
        check(
            "A man walks. (Ivan Valencia/AP)",
            &["Ivan Valencia"],
            Some("AP"),
            None,
        );
        check(
            "A man walks. Louai Beshara/AFP/Getty Images",
            &["Louai Beshara"],
            Some("AFP"),
            Some("Getty Images"),
        );
        check(
            "A man walks. Jane Doe via AP",
            &["Jane Doe"],
            None,
            Some("AP"),
        );
        check(
            "A man walks. Photo: Youssef Badawi/EPA",
            &["Youssef Badawi"],
            Some("EPA"),
            None,
        );
        check(
            "A man walks. (Manu Brabo, Associated Press - October 3, 2012)",
            &["Manu Brabo"],
            Some("AP"),
            None,
        );
        check(
            "A man walks. (Vincent Laforet/The New York Times - September 30, 2001)",
            &["Vincent Laforet"],
            Some("The New York Times"),
            None,
        );
        check(
            "A man walks. Photo by Ahmed Zakot.",
            &["Ahmed Zakot"],
            None,
            None,
        );
        check(
            "A man walks. (Photo by Ann Lee and Bo Kim/AFP)",
            &["Ann Lee", "Bo Kim"],
            Some("AFP"),
            None,
        );
        check("A man walks. REUTERS/Stringer", &[], Some("Reuters"), None);
        check(
            "A man walks. Handout via Reuters",
            &[],
            None,
            Some("Reuters"),
        );
        check(
            "A man walks. SANA/Handout via REUTERS",
            &[],
            Some("SANA"),
            Some("Reuters"),
        );
        check(
            "A fighter. (Photo by Alexander Kots/Komsomolskaya Pravda via AP Photo)",
            &["Alexander Kots"],
            Some("Komsomolskaya Pravda"),
            Some("AP"),
        );
        check(
            "A man walks in the rain. (Danish Siddiqui)",
            &["Danish Siddiqui"],
            None,
            None,
        );
        check(
            "A man walks. (Lucian Perkins/The Washington Post)",
            &["Lucian Perkins"],
            Some("The Washington Post"),
            None,
        );
        check(
            "A man walks. (Sample Wire Photo/Rami Haddad)",
            &["Rami Haddad"],
            Some("Sample Wire"),
            None,
        );
        check(
            "A man walks. SAMPLE WIRE/Rami Haddad",
            &["Rami Haddad"],
            Some("Sample Wire"),
            None,
        );
    }

    #[test]
    fn dates_and_asides_are_not_credits() {
        assert!(find("A man walks. (10/14/2016)").is_none());
        assert!(find("A man walks. (December 31, 2018)").is_none());
        assert!(find("A man walks. (Published on July 13, 2022.)").is_none());
        assert!(find("Fighters of Jaish al-Islam (Islam Army) run in Jobar, Syria.").is_none());
        assert!(find("Syrian Democratic Forces (SDF) fighters walk in Raqqa.").is_none());
    }
}
