//! Deterministic synthetic corpora: gallery pages of captions in the house styles of
//! wire desks (`desk`), grammatical scenes that fit their occasions (`grammar`), set in
//! places spelled as the news spells them (`places`), credited to the fictional agency "Sample Wire" so nobody can
//! mistake them for real reporting.
//!
//! Caption `i` of seed `s` is a pure function of `(s, i)`, and page `j` a pure function
//! of `(s, j)`, so any page can be produced on its own, in any order, in constant memory.
#![warn(missing_docs)]

mod desk;
mod grammar;
mod incidents;
mod neardup;
mod places;

use std::sync::Arc;

use desk::{Day, Desk, Story};
use grammar::Event;
use places::Spot;

pub use incidents::{IncidentCaption, IncidentCorpus};
pub use neardup::{Labelled, NearDupCorpus};

use cairn_gazetteer::Gazetteer;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The fictional agency every synthetic caption is credited to.
pub const AGENCY: &str = "Sample Wire";

/// Generates pages for one seed.
#[derive(Debug, Clone)]
pub struct Generator {
    seed: u64,
    spots: Arc<Vec<Spot>>,
    /// Distinct captions in the pool; pages draw from it with a skewed popularity.
    pool: u64,
}

/// One generated page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Page number.
    pub index: u64,
    /// Relative path to write it to.
    pub path: String,
    /// Its text: captions separated by blank lines.
    pub text: String,
    /// The pool ids of its captions, in order.
    pub captions: Vec<u64>,
}

const FIRST: &[&str] = &[
    "Rami", "Lina", "Omar", "Sara", "Karim", "Nadia", "Yusuf", "Maya", "Tariq", "Hana", "Ziad",
    "Amal",
];
const LAST: &[&str] = &[
    "Haddad", "Nasser", "Saleh", "Khoury", "Mansour", "Aziz", "Farah", "Darwish", "Hakim", "Qasim",
    "Sabbagh", "Zein",
];

/// A toll sentence: a number of dead, perhaps hedged, and who gives it.
fn toll(r: &mut ChaCha8Rng) -> String {
    let n = grammar::NUMBERS.choose(r).unwrap();
    let hedged = r.random_bool(0.5);
    // A sentence does not start with digits: those are always hedged.
    let start = if hedged || n.starts_with(|c: char| c.is_ascii_digit()) {
        format!("At least {n}")
    } else {
        let mut cs = n.chars();
        cs.next()
            .map(|c| c.to_uppercase().chain(cs).collect())
            .unwrap_or_default()
    };
    let source = grammar::TOLL_SOURCES.choose(r).unwrap();
    format!("{start} people were killed, {source}.")
}

impl Generator {
    /// A generator for `seed` whose pool is sized for `pages` pages.
    pub fn new(gazetteer: &Gazetteer, seed: u64, pages: u64) -> Self {
        let spots = places::spots(gazetteer);
        assert!(!spots.is_empty(), "the gazetteer knows none of the places");
        Generator {
            seed,
            spots: Arc::new(spots),
            pool: (pages * 3).max(10),
        }
    }

    fn rng(&self, stream: u64, i: u64) -> ChaCha8Rng {
        let mut r = ChaCha8Rng::seed_from_u64(self.seed ^ 0x9E37_79B9_7F4A_7C15);
        r.set_stream(stream);
        r.set_word_pos(u128::from(i) * 1024);
        r
    }

    /// Caption `i` of the pool.
    pub fn caption(&self, i: u64) -> String {
        self.compose(i, None)
    }

    /// Caption `i` of the pool, with `detail` (a phrase such as `carrying a child`) after
    /// its scene unless the scene already speaks of the same thing.
    pub(crate) fn compose(&self, i: u64, detail: Option<&str>) -> String {
        let mut r = self.rng(1, i);
        let event = *Event::WEIGHTED.choose(&mut r).unwrap();
        let scene = *grammar::scenes_for(event).choose(&mut r).unwrap();
        let subject = scene.subjects.choose(&mut r).unwrap();
        let spot = &self.spots[r.random_range(0..self.spots.len())];
        let day = Day {
            year: r.random_range(2011..=2024),
            month: r.random_range(1..=12),
            day: r.random_range(1..=28),
        };
        let desk = *Desk::ALL.choose(&mut r).unwrap();
        let mut scene_text = format!(
            "{} {} {}",
            subject.text,
            scene.verb.form(subject.number),
            scene.rest
        );
        let repeats = |d: &str| {
            d.rsplit(' ')
                .next()
                .is_some_and(|last| scene.rest.contains(last))
        };
        if let Some(d) = detail.filter(|d| !repeats(d)) {
            scene_text.push(' ');
            scene_text.push_str(d);
        }
        if event != Event::Calm {
            scene_text.push(' ');
            scene_text.push_str(event.phrase());
        }
        let mut more = Vec::new();
        if event.kills() && r.random_bool(0.5) {
            more.push(toll(&mut r));
        }
        if r.random_bool(0.3) {
            more.push(grammar::BACKGROUND.choose(&mut r).unwrap().to_string());
        }
        let who = format!(
            "{} {}",
            FIRST.choose(&mut r).unwrap(),
            LAST.choose(&mut r).unwrap()
        );
        desk.write(&Story {
            scene: &scene_text,
            spot,
            day,
            more: &more,
            photographer: &who,
        })
    }

    /// Page `j`: 4 to 12 captions from the pool; popular captions recur on many pages.
    pub fn page(&self, j: u64) -> Page {
        let mut r = self.rng(2, j);
        let n = r.random_range(4..=12);
        let mut captions = Vec::with_capacity(n);
        while captions.len() < n {
            // Skewed popularity: a squared uniform favours low ids.
            let u: f64 = r.random();
            let id = ((u * u) * self.pool as f64) as u64 % self.pool;
            if !captions.contains(&id) {
                captions.push(id);
            }
        }
        let mut text = String::new();
        for (k, &id) in captions.iter().enumerate() {
            if k > 0 {
                text.push_str("\n\n");
            }
            text.push_str(&self.caption(id));
        }
        text.push('\n');
        Page {
            index: j,
            path: format!("{:05}/page-{j:08}.txt", j / 1000),
            text,
            captions,
        }
    }
}

/// Escapes text for HTML element content and double-quoted attributes.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Generator {
    /// Page `j` as an HTML gallery page: the same captions as [`Generator::page`], each
    /// in a `figure` with a `figcaption`, the first one also in a lightbox
    /// `data-caption`, inside the navigation, script and footer markup of a news site.
    pub fn html_page(&self, j: u64) -> Page {
        let p = self.page(j);
        let mut h = String::with_capacity(16 * 1024);
        h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
        h.push_str(&format!(
            "<title>Pictures of the day {j} | Sample Wire</title>\n<meta name=\"viewport\" content=\"width=device-width\">\n<link rel=\"stylesheet\" href=\"/static/site.css\">\n<script src=\"/static/analytics.js\" async></script>\n</head>\n<body class=\"gallery-page\">\n"
        ));
        h.push_str(
            "<header class=\"site-header\"><a class=\"logo\" href=\"/\">Sample Wire</a>\n<nav><ul>",
        );
        for section in [
            "World",
            "Middle East",
            "Africa",
            "Europe",
            "Asia",
            "Pictures",
            "Video",
            "Opinion",
        ] {
            h.push_str(&format!(
                "<li><a href=\"/{}\">{section}</a></li>",
                section.to_lowercase().replace(' ', "-")
            ));
        }
        h.push_str(
            "</ul></nav></header>\n<main><h1>Pictures of the day</h1>\n<div class=\"gallery\">\n",
        );
        for (k, &id) in p.captions.iter().enumerate() {
            let c = esc(&self.caption(id));
            h.push_str(&format!(
                "<figure class=\"gallery-item\" id=\"photo-{k}\">\n  <a href=\"/photos/{id}.jpg\" class=\"lightbox-link\"><img src=\"/photos/{id}-thumb.jpg\" width=\"640\" height=\"427\" loading=\"lazy\" alt=\"Photo {k}\"></a>\n  <figcaption>{c}</figcaption>\n  <div class=\"share\"><a href=\"/share?p={id}\">Share</a> <a href=\"/buy?p={id}\">Buy print</a></div>\n</figure>\n"
            ));
            if k == 0 {
                h.push_str(&format!(
                    "<div class=\"lightbox\" hidden data-caption=\"{c}\"></div>\n"
                ));
            }
        }
        h.push_str("</div></main>\n<aside class=\"related\"><h2>More galleries</h2><ul>");
        for r in 1..=6 {
            h.push_str(&format!(
                "<li><a href=\"/galleries/{}\">Gallery {}</a></li>",
                j + r,
                j + r
            ));
        }
        h.push_str("</ul></aside>\n<footer><p>&copy; Sample Wire. All rights reserved. <a href=\"/terms\">Terms</a> <a href=\"/privacy\">Privacy</a></p></footer>\n");
        h.push_str("<script>window.dataLayer = window.dataLayer || []; dataLayer.push({page: 'gallery'});</script>\n</body></html>\n");
        Page {
            index: j,
            path: format!("{:05}/page-{j:08}.html", j / 1000),
            text: h,
            captions: p.captions,
        }
    }
}

/// Writes pages as one WARC file of `response` records, each record its own gzip
/// member (as crawlers write .warc.gz).
pub fn write_warc_gz(
    out: &mut impl std::io::Write,
    pages: impl Iterator<Item = (String, String)>,
) -> std::io::Result<u64> {
    use std::io::Write as _;
    let mut n = 0;
    for (uri, body) in pages {
        let http = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let record = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012x}>\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        );
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(record.as_bytes())?;
        out.write_all(&gz.finish()?)?;
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_marked_synthetic() {
        let g = Gazetteer::bundled();
        let a = Generator::new(&g, 7, 100);
        let b = Generator::new(&g, 7, 100);
        assert_eq!(a.page(5), b.page(5));
        assert_ne!(a.page(5), a.page(6));
        let p = a.page(3);
        assert!(p.text.contains(AGENCY) || p.text.contains("SAMPLE WIRE"));
        let c = Generator::new(&g, 8, 100);
        assert_ne!(a.page(5).text, c.page(5).text);
        let h = a.html_page(5);
        assert_eq!(h.captions, a.page(5).captions);
        assert!(h.text.contains("<figcaption>"));
    }

    /// The caption's subject and the word after it, past a Getty-style dateline.
    fn subject_and_verb(caption: &str) -> (grammar::Subject, &str) {
        let body = match caption.split_once(": ") {
            Some((head, rest)) if head.chars().all(|c| !c.is_lowercase()) => rest,
            _ => caption,
        };
        let subject = grammar::SUBJECTS
            .iter()
            .filter(|s| body.starts_with(&format!("{} ", s.text)))
            .max_by_key(|s| s.text.len())
            .unwrap_or_else(|| panic!("no generator subject starts {caption:?}"));
        let verb = body[subject.text.len() + 1..].split(' ').next().unwrap();
        (*subject, verb)
    }

    #[test]
    fn subjects_and_verbs_agree_in_number() {
        let g = Gazetteer::bundled();
        let mut seen = std::collections::HashSet::new();
        for seed in [1, 7, 42] {
            let gen_ = Generator::new(&g, seed, 2000);
            let corpus = NearDupCorpus::new(gen_.clone(), seed);
            let texts = (0..3000)
                .map(|i| gen_.caption(i))
                .chain((0..1000).map(|p| corpus.original(p)));
            for text in texts {
                let (subject, word) = subject_and_verb(&text);
                let verb = grammar::SCENES
                    .iter()
                    .map(|s| s.verb)
                    .find(|v| v.one == word || v.many == word)
                    .unwrap_or_else(|| panic!("no generator verb after the subject: {text:?}"));
                assert_eq!(
                    word,
                    verb.form(subject.number),
                    "{:?} takes {:?}: {text:?}",
                    subject.text,
                    verb.form(subject.number)
                );
                seen.insert((subject.text, subject.number == grammar::Number::One));
            }
        }
        // Both numbers occur, so the check above has met both.
        assert!(seen.iter().any(|(_, one)| *one) && seen.iter().any(|(_, one)| !*one));
    }

    #[test]
    fn scenes_fit_their_events() {
        let g = Gazetteer::bundled();
        let gen_ = Generator::new(&g, 3, 2000);
        let rescue = [
            "for survivors",
            "rubble",
            "at the site of an explosion",
            "a funeral",
        ];
        for i in 0..3000 {
            let c = gen_.caption(i);
            if c.contains("during a protest") {
                assert!(!rescue.iter().any(|r| c.contains(r)), "{c}");
            }
            if c.contains("people were killed") {
                assert!(
                    ["shelling", "airstrikes", "car bomb", "clashes"]
                        .iter()
                        .any(|e| c.contains(e)),
                    "a toll without a deadly event: {c}"
                );
            }
            if c.contains("football") || c.contains("vegetables") {
                assert!(!c.contains(" after ") && !c.contains("following"), "{c}");
            }
        }
    }

    #[test]
    fn every_desk_files_captions() {
        let g = Gazetteer::bundled();
        let gen_ = Generator::new(&g, 5, 100);
        let all: Vec<String> = (0..400).map(|i| gen_.caption(i)).collect();
        for mark in [
            "SAMPLE WIRE/",
            "(Sample Wire Photo/",
            " / Sample Wire)",
            " - ",
        ] {
            assert!(
                all.iter().any(|c| c.contains(mark)),
                "no caption with {mark}"
            );
        }
        assert!(
            all.iter().all(|c| c.is_ascii()),
            "places as wires spell them"
        );
    }

    #[test]
    fn pages_share_captions() {
        let g = Gazetteer::bundled();
        let gen_ = Generator::new(&g, 1, 50);
        let mut seen = std::collections::HashMap::new();
        for j in 0..50 {
            for id in gen_.page(j).captions {
                *seen.entry(id).or_insert(0) += 1;
            }
        }
        assert!(
            seen.values().any(|&n| n > 1),
            "some caption recurs across pages"
        );
    }
}
