//! Deterministic synthetic corpora: gallery pages of captions in wire-agency style over
//! real gazetteer places, credited to the fictional agency "Sample Wire" so nobody can
//! mistake them for real reporting.
//!
//! Caption `i` of seed `s` is a pure function of `(s, i)`, and page `j` a pure function
//! of `(s, j)`, so any page can be produced on its own, in any order, in constant memory.
#![warn(missing_docs)]

mod neardup;

use std::sync::Arc;

pub use neardup::{Labelled, NearDupCorpus};

use cairn_gazetteer::Gazetteer;
use cairn_model::PlaceKind;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The fictional agency every synthetic caption is credited to.
pub const AGENCY: &str = "Sample Wire";

/// A place a caption can be set in.
#[derive(Debug, Clone)]
struct Spot {
    name: String,
    country: String,
}

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

const SUBJECTS: &[&str] = &[
    "A man",
    "A woman",
    "A boy",
    "A girl",
    "Residents",
    "Civil defence workers",
    "Children",
    "A fighter",
    "Rescue workers",
    "Displaced families",
    "A vendor",
    "Protesters",
    "Medics",
    "Volunteers",
    "An elderly man",
];
const ACTIONS: &[&str] = &[
    "walks past a damaged building",
    "inspects the rubble of a house",
    "carries belongings through a street",
    "queues for bread outside a bakery",
    "gathers at the site of an explosion",
    "rides a bicycle along a destroyed road",
    "sells vegetables at a market",
    "searches for survivors under debris",
    "waits at a checkpoint",
    "plays football in a courtyard",
    "attends a funeral",
    "prays at a mosque",
    "fills water containers",
    "takes part in a demonstration",
    "stands near a burnt-out car",
];
const CAUSES: &[(&str, &str)] = &[
    (
        "following reported shelling",
        "Shelling/artillery/missile attack",
    ),
    (
        "after what activists said were airstrikes",
        "Air/drone strike",
    ),
    (
        "after a car bomb explosion",
        "Remote explosive/landmine/IED",
    ),
    ("after clashes between rival groups", "Armed clash"),
    ("during a protest against rising prices", "Peaceful protest"),
    ("", ""),
    ("", ""),
    ("", ""),
];
const NUMBERS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "10", "12", "15", "21",
];
const FIRST: &[&str] = &[
    "Rami", "Lina", "Omar", "Sara", "Karim", "Nadia", "Yusuf", "Maya", "Tariq", "Hana", "Ziad",
    "Amal",
];
const LAST: &[&str] = &[
    "Haddad", "Nasser", "Saleh", "Khoury", "Mansour", "Aziz", "Farah", "Darwish", "Hakim", "Qasim",
    "Sabbagh", "Zein",
];
const BACKGROUND: &[&str] = &[
    "The conflict has displaced millions of people since it began.",
    "Aid groups say food prices in the area have tripled this year.",
    "Residents say electricity is available for only a few hours a day.",
    "The area has changed hands several times during the war.",
];
const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn strip_marks(s: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for c in s.chars() {
        let base = match c {
            'ā' | 'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'Ā' | 'Á' | 'À' | 'Â' | 'Ä' => 'A',
            'ē' | 'é' | 'è' | 'ê' | 'ë' => 'e',
            'É' | 'È' => 'E',
            'ī' | 'í' | 'ì' | 'î' | 'ï' => 'i',
            'ō' | 'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
            'ū' | 'ú' | 'ù' | 'û' | 'ü' => 'u',
            'Ḩ' | 'Ḥ' => 'H',
            'ḩ' | 'ḥ' => 'h',
            'Ş' | 'Ṣ' => 'S',
            'ş' | 'ṣ' => 's',
            'Ţ' | 'Ṭ' => 'T',
            'ţ' | 'ṭ' => 't',
            'Ḑ' | 'Ḍ' => 'D',
            'ḑ' | 'ḍ' => 'd',
            'Ẕ' | 'Ẓ' => 'Z',
            'ẕ' | 'ẓ' => 'z',
            'ç' => 'c',
            'ñ' => 'n',
            '‘' | '’' | 'ʼ' | '`' => '\'',
            c => c,
        };
        let _ = write!(out, "{base}");
    }
    out
}

impl Generator {
    /// A generator for `seed` whose pool is sized for `pages` pages.
    pub fn new(gazetteer: &Gazetteer, seed: u64, pages: u64) -> Self {
        const COUNTRIES: &[&str] = &[
            "SY", "IQ", "UA", "YE", "AF", "LY", "SD", "LB", "PS", "SO", "ML", "MM",
        ];
        let mut spots: Vec<Spot> = gazetteer
            .entries()
            .filter(|(_, e)| {
                (e.kind == PlaceKind::Town && e.population >= 40_000 || e.id.starts_with("cairn:"))
                    && COUNTRIES.contains(&e.country.as_str())
                    && e.kind != PlaceKind::Region
            })
            .map(|(_, e)| Spot {
                name: strip_marks(&e.name),
                country: e.country.clone(),
            })
            .filter(|s| s.name.is_ascii())
            .collect();
        spots.sort_by(|a, b| (&a.country, &a.name).cmp(&(&b.country, &b.name)));
        spots.dedup_by(|a, b| a.name == b.name);
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

    fn country_name(cc: &str) -> &'static str {
        match cc {
            "SY" => "Syria",
            "IQ" => "Iraq",
            "UA" => "Ukraine",
            "YE" => "Yemen",
            "AF" => "Afghanistan",
            "LY" => "Libya",
            "SD" => "Sudan",
            "LB" => "Lebanon",
            "PS" => "Palestinian Territories",
            "SO" => "Somalia",
            "ML" => "Mali",
            "MM" => "Myanmar",
            _ => "",
        }
    }

    /// Caption `i` of the pool.
    pub fn caption(&self, i: u64) -> String {
        let mut r = self.rng(1, i);
        let subject = SUBJECTS.choose(&mut r).unwrap();
        let action = ACTIONS.choose(&mut r).unwrap();
        let (cause, _event) = CAUSES.choose(&mut r).unwrap();
        let spot = &self.spots[r.random_range(0..self.spots.len())];
        let country = Self::country_name(&spot.country);
        let year = r.random_range(2011..=2024);
        let month = r.random_range(0..12);
        let day = r.random_range(1..=28);
        let mut s = format!("{subject} {action}");
        if !cause.is_empty() {
            s.push(' ');
            s.push_str(cause);
        }
        s.push_str(&format!(
            " in {}, {country}, on {} {day}, {year}.",
            spot.name, MONTHS[month]
        ));
        if !cause.is_empty() && r.random_bool(0.5) {
            let n = NUMBERS.choose(&mut r).unwrap();
            let hedge = if r.random_bool(0.5) { "At least " } else { "" };
            let start = if hedge.is_empty() {
                let mut cs = n.chars();
                match cs.next() {
                    Some(c) => c.to_uppercase().chain(cs).collect(),
                    None => String::new(),
                }
            } else {
                format!("{hedge}{n}")
            };
            s.push_str(&format!(
                " {start} people were killed, according to local medics."
            ));
        }
        if r.random_bool(0.3) {
            s.push(' ');
            s.push_str(BACKGROUND.choose(&mut r).unwrap());
        }
        let who = format!(
            "{} {}",
            FIRST.choose(&mut r).unwrap(),
            LAST.choose(&mut r).unwrap()
        );
        match r.random_range(0..3) {
            0 => s.push_str(&format!(" (Photo by {who}/{AGENCY})")),
            1 => s.push_str(&format!(" SAMPLE WIRE/{who}")),
            _ => s.push_str(&format!(" ({AGENCY} Photo/{who})")),
        }
        s
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
