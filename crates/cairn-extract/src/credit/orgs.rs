//! The table of news organisations that credits name (`data/organizations.tsv`): canonical
//! short names, kinds and aliases in any script, loaded once.

use std::cell::RefCell;
use std::sync::LazyLock;

use rustc_hash::FxHashMap;

/// What an organisation is to a photograph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Wire,
    Photo,
    Outlet,
    Handout,
    Pool,
}

/// One organisation of the table.
#[derive(Debug)]
pub struct Org {
    pub name: &'static str,
    pub kind: Kind,
}

struct Table {
    orgs: Vec<Org>,
    by_key: FxHashMap<String, usize>,
    /// The longest key, in bytes: longer text is no name of the table.
    longest: usize,
}

static DATA: &str = include_str!("../../data/organizations.tsv");

static TABLE: LazyLock<Table> = LazyLock::new(|| load(DATA));

fn load(data: &'static str) -> Table {
    let mut orgs = Vec::new();
    let mut by_key = FxHashMap::default();
    for line in data.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut cols = line.split('\t');
        let name = cols.next().unwrap_or("").trim();
        let kind = match cols.next().unwrap_or("").trim() {
            "wire" => Kind::Wire,
            "photo" => Kind::Photo,
            "handout" => Kind::Handout,
            "pool" => Kind::Pool,
            _ => Kind::Outlet,
        };
        let i = orgs.len();
        orgs.push(Org { name, kind });
        let aliases = cols.next().unwrap_or("");
        for a in std::iter::once(name).chain(aliases.split('|')) {
            let k = key(a);
            if !k.is_empty() {
                by_key.entry(k).or_insert(i);
            }
        }
    }
    let longest = by_key.keys().map(String::len).max().unwrap_or(0);
    Table {
        orgs,
        by_key,
        longest,
    }
}

/// Every written form of the table, in lookup form.
pub(super) fn keys() -> impl Iterator<Item = &'static str> {
    TABLE.by_key.keys().map(String::as_str)
}

/// The lookup form of a name: lower case, whitespace folded, surrounding punctuation off.
pub fn key(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    key_into(s, &mut out);
    out
}

/// [`key`], written into `out` (which is cleared first).
pub(super) fn key_into(s: &str, out: &mut String) {
    out.clear();
    let t = s.trim_matches(|c: char| c.is_whitespace() || matches!(c, '.' | ',' | ';' | ':' | '"'));
    for w in t.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        if w.is_ascii() {
            let at = out.len();
            out.push_str(w);
            out[at..].make_ascii_lowercase();
        } else {
            out.extend(w.chars().flat_map(char::to_lowercase));
        }
    }
}

thread_local! {
    /// The key of the name being looked up: credits look up many short runs of words,
    /// and a buffer kept per thread spares each lookup an allocation.
    static KEY: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The organisation a written name stands for, if the table knows it. A trailing
/// `Photo`/`Foto`, a leading `The` or a copyright year do not change the organisation.
pub fn lookup(s: &str) -> Option<&'static Org> {
    let t = &*TABLE;
    // Room for a copyright sign, a year and a trailing `Photo` around a name.
    if s.len() > t.longest + 16 {
        return None;
    }
    KEY.with_borrow_mut(|k| {
        key_into(s, k);
        lookup_key(t, k)
    })
}

/// The organisation of a name already in lookup form.
fn lookup_key(t: &'static Table, k: &str) -> Option<&'static Org> {
    if let Some(&i) = t.by_key.get(k) {
        return Some(&t.orgs[i]);
    }
    let mut k2: &str = k;
    for suffix in [
        " photos",
        " photo",
        " foto",
        " fotos",
        " images",
        " pictures",
    ] {
        if let Some(s) = k2.strip_suffix(suffix) {
            k2 = s;
            break;
        }
    }
    k2 = k2.strip_prefix("the ").unwrap_or(k2);
    // `© 2019 Reuters`: the copyright sign and year, not a `1st` or `3D`.
    k2 = k2.trim_start_matches('©').trim_start();
    if let Some((year, rest)) = k2.split_once(' ') {
        if year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()) {
            k2 = rest;
        }
    }
    t.by_key.get(k2).map(|&i| &t.orgs[i])
}

/// The organisation a name one typing slip from a long written form stands for
/// (`Asociated Press`, `Agence France Presse` without its hyphen is exact already): one
/// letter left out, added, changed or two swapped, for forms of ten letters or more, where
/// such a slip cannot make another name. Read only where a credit's organisation stands.
pub fn lookup_misspelt(s: &str) -> Option<&'static Org> {
    let t = &*TABLE;
    let k = key(s);
    if k.chars().count() < 10 || k.len() > t.longest + 1 {
        return None;
    }
    let mut found: Option<usize> = None;
    for (form, &i) in &t.by_key {
        if form.len().abs_diff(k.len()) <= 1 && one_slip(form, &k) {
            if found.is_some_and(|f| f != i) {
                return None;
            }
            found = Some(i);
        }
    }
    found.map(|i| &t.orgs[i])
}

/// Whether `a` and `b` differ by one edit or one swap of neighbours.
fn one_slip(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a == b {
        return false;
    }
    let pre = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ra, rb) = (a.len() - pre - suf, b.len() - pre - suf);
    match (ra, rb) {
        (0, 1) | (1, 0) | (1, 1) => true,
        (2, 2) => a[pre] == b[pre + 1] && a[pre + 1] == b[pre],
        _ => false,
    }
}

/// How many organisations the table holds.
#[cfg(test)]
pub fn len() -> usize {
    TABLE.orgs.len()
}

/// How many organisations of a kind the table holds.
#[cfg(test)]
pub fn count(kind: Kind) -> usize {
    TABLE.orgs.iter().filter(|o| o.kind == kind).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_knows_the_trade() {
        assert!(len() >= 200, "{}", len());
        for (written, name) in [
            ("AFP PHOTO", "AFP"),
            ("Agence France-Presse", "AFP"),
            ("أ ف ب", "AFP"),
            ("أ.ف.ب", "AFP"),
            ("وكالة الصحافة الفرنسية", "AFP"),
            ("الفرنسية", "AFP"),
            ("رويترز", "Reuters"),
            ("الأناضول", "Anadolu Agency"),
            ("AA", "Anadolu Agency"),
            ("أسوشيتد برس", "AP"),
            ("AP Foto", "AP"),
            ("الأوروبية", "EPA"),
            ("EPA-EFE", "EPA"),
            ("الجزيرة", "Al Jazeera"),
            ("سانا", "SANA"),
            ("وكالة الأنباء الألمانية", "dpa"),
            ("APAIMAGES PHOTO", "APA Images"),
            ("© 2019 Reuters", "Reuters"),
            ("REX/Shutterstock", "Shutterstock"),
            ("Washington Post", "The Washington Post"),
        ] {
            assert_eq!(lookup(written).map(|o| o.name), Some(name), "{written}");
        }
        assert_eq!(lookup("White Helmets").map(|o| o.kind), Some(Kind::Handout));
        assert_eq!(lookup("POOL").map(|o| o.kind), Some(Kind::Pool));
        assert!(lookup("Islam Army").is_none());
    }

    #[test]
    fn every_kind_is_stocked() {
        // Each row names one of the five kinds (a misspelt kind would silently read as
        // an outlet), and no written form stands for two organisations.
        let mut seen: FxHashMap<String, &str> = FxHashMap::default();
        for line in DATA
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            assert!(
                ["wire", "photo", "outlet", "handout", "pool"]
                    .contains(&cols.get(1).map_or("", |k| k.trim())),
                "{line}"
            );
            let aliases = cols.get(2).copied().unwrap_or("");
            for a in std::iter::once(cols[0]).chain(aliases.split('|')) {
                let k = key(a);
                if k.is_empty() {
                    continue;
                }
                if let Some(other) = seen.insert(k.clone(), cols[0]) {
                    assert_eq!(other, cols[0], "{k:?} names two organisations");
                }
            }
        }
        assert!(len() >= 500, "{}", len());
        for (kind, least) in [
            (Kind::Wire, 100),
            (Kind::Photo, 75),
            (Kind::Outlet, 240),
            (Kind::Handout, 110),
            (Kind::Pool, 1),
        ] {
            assert!(count(kind) >= least, "{kind:?}: {}", count(kind));
        }
        for (written, name, kind) in [
            ("Xinhua", "Xinhua", Kind::Wire),
            ("Ukrinform", "Ukrinform", Kind::Wire),
            ("WAFA", "WAFA", Kind::Wire),
            ("IRNA", "IRNA", Kind::Wire),
            ("ZUMA Wire", "ZUMA Press", Kind::Photo),
            ("Magnum", "Magnum Photos", Kind::Photo),
            ("PA Images", "PA Images", Kind::Photo),
            ("Página/12", "Página/12", Kind::Outlet),
            ("Doctors Without Borders", "MSF", Kind::Handout),
            ("UN Refugee Agency", "UNHCR", Kind::Handout),
        ] {
            let o = lookup(written).unwrap_or_else(|| panic!("{written}"));
            assert_eq!((o.name, o.kind), (name, kind), "{written}");
        }
    }
}
