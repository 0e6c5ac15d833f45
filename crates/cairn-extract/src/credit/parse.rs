//! A credit's text split at its separators (`/`, `\`, `|`, spaced dashes, commas, `via`)
//! into pieces, each classified, then given its role: photographers, agency, distributor
//! and the flags the credit states.

use cairn_model::{CreditFlag, Span};

use super::orgs::{self, Kind};
use super::pieces::{is_date, mixed_caps, picture_id, short_ok, title_wire};
use super::words::{self, Role};

/// Where the credit may stop short of the text given: `Exact` takes all of it; `Tail`
/// lets the credit begin inside its first piece (a credit glued after the caption);
/// `Lead` lets it end inside its last (a credit standing before the caption).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Exact,
    Tail,
    Lead,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    Start,
    Slash,
    Comma,
    Via,
    Dash,
}

/// A parsed credit; `start..end` is the part of the input it covers.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub people: Vec<String>,
    pub agency: Option<String>,
    pub distributor: Option<String>,
    pub flags: Vec<CreditFlag>,
    /// An organisation of the table is named.
    pub known: bool,
    /// Pieces read (a `Name/Agency` shape has two).
    pub pieces: usize,
    pub start: usize,
    pub end: usize,
}

/// A credit read at one place of the caption.
#[derive(Debug, Clone)]
pub struct Cand {
    pub span: Span,
    pub parsed: Parsed,
    pub marker: bool,
}

#[derive(Debug, Clone)]
enum Item {
    Person(String),
    Org(String, Option<Kind>),
    Role(Role),
    Skip,
}

/// Splits at separators; each piece with the separator before it.
fn pieces(s: &str) -> Vec<(Sep, usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut sep = Sep::Start;
    let mut i = 0;
    while i < s.len() {
        let c = s[i..].chars().next().unwrap_or(' ');
        let n = c.len_utf8();
        let prev_space = i == 0 || b[i - 1] == b' ';
        let next_space = i + n >= s.len() || b[i + n] == b' ';
        let found = match c {
            // `Social media/via REUTERS`.
            '/' if b.len() > i + 5 && b[i + 1..i + 5].eq_ignore_ascii_case(b"via ") => {
                Some((Sep::Via, 5))
            }
            '/' | '\\' | '|' => Some((Sep::Slash, n)),
            '–' | '—' => Some((Sep::Dash, n)),
            '-' if prev_space || next_space => Some((Sep::Dash, n)),
            // (`October 3, 2012` is one piece.)
            ',' | ';' if next_space && !b.get(i + 2).is_some_and(u8::is_ascii_digit) => {
                Some((Sep::Comma, n))
            }
            ' ' if b.len() > i + 5 && b[i + 1..i + 5].eq_ignore_ascii_case(b"via ") => {
                Some((Sep::Via, 5))
            }
            ' ' if b.len() > i + 16
                && b[i + 1..i + 16].eq_ignore_ascii_case(b"distributed by ") =>
            {
                Some((Sep::Via, 16))
            }
            _ => None,
        };
        if let Some((kind, len)) = found {
            out.push((sep, start, i));
            sep = kind;
            start = i + len;
            i += len;
        } else {
            i += n;
        }
    }
    out.push((sep, start, s.len()));
    out
}

fn trim_range(s: &str, a: usize, e: usize) -> (usize, usize) {
    let t = &s[a..e];
    let junk = |c: char| c.is_whitespace() || matches!(c, '.' | ':' | '"' | '“' | '”');
    let l = t.len() - t.trim_start_matches(junk).len();
    let mut r = t.trim_end_matches(junk).len();
    // `Name Jr.` keeps its stop.
    let kept = &t[..r];
    if t[r..].starts_with('.')
        && [" Jr", " Sr", " JR", " SR"]
            .iter()
            .any(|x| kept.ends_with(x))
    {
        r += 1;
    }
    if l >= r { (a, a) } else { (a + l, a + r) }
}

/// Strips the words that introduce a person or a body inside a piece.
fn strip_intro(p: &str) -> (&str, Option<Role>) {
    for (intro, role) in [
        ("photo courtesy of the ", Some(Role::Handout)),
        ("photo courtesy of ", Some(Role::Handout)),
        ("courtesy of the ", Some(Role::Handout)),
        ("courtesy of ", Some(Role::Handout)),
        ("pool photo by ", Some(Role::Pool)),
        ("file photo: ", Some(Role::File)),
        ("file: ", Some(Role::File)),
        ("photo d'archives ", Some(Role::File)),
        ("foto de archivo ", Some(Role::File)),
        ("archivfoto ", Some(Role::File)),
        ("press service of the ", None),
        ("press service of ", None),
        ("press office of the ", None),
        ("press office of ", None),
        ("photo by ", None),
        ("photos by ", None),
        ("photographs by ", None),
        ("photograph by ", None),
        ("foto de ", None),
        ("photo ", None),
        ("foto ", None),
        ("satellite image ", None),
    ] {
        if p.len() > intro.len()
            && p.is_char_boundary(intro.len())
            && p[..intro.len()].eq_ignore_ascii_case(intro)
        {
            let rest = &p[intro.len()..];
            if rest.chars().next().is_some_and(|c| !c.is_lowercase()) {
                return (rest, role);
            }
        }
    }
    (p, None)
}

/// Classifies one whole piece; `None` when it is neither name, role nor organisation.
fn classify(p: &str) -> Option<Vec<Item>> {
    let p = p.trim();
    let p = &p[super::markers::strip_markers(p)..];
    let before = p.len();
    let (p, intro_role) = strip_intro(p);
    let intro_given = p.len() < before;
    // Longer than any name or alias: caption words (spares the lookups below).
    if p.split_whitespace().nth(10).is_some() {
        return None;
    }
    let mut items: Vec<Item> = intro_role.map(Item::Role).into_iter().collect();
    if let Some(r) = words::role(p) {
        items.push(Item::Role(r));
        return Some(items);
    }
    if let Some(o) = orgs::lookup(p).filter(|o| short_ok(p) || title_wire(p, o.kind)) {
        items.push(Item::Org(o.name.to_string(), Some(o.kind)));
        return Some(items);
    }
    if p.bytes().any(|b| b.is_ascii_digit()) && (is_date(p) || picture_id(p)) {
        items.push(Item::Skip);
        return Some(items);
    }
    if let Some(mut split) = split_run(p) {
        items.append(&mut split);
        return Some(items);
    }
    if words::person_like(p) && !words::org_like(p) && !mixed_caps(p) {
        items.push(Item::Person(p.to_string()));
        return Some(items);
    }
    let several: Vec<&str> = p.split(" and ").flat_map(|x| x.split(" & ")).collect();
    if several.len() > 1 && several.iter().all(|n| words::person_like(n)) {
        items.extend(several.iter().map(|n| Item::Person(n.trim().to_string())));
        return Some(items);
    }
    let acronym = intro_given && words::all_caps(p) && !p.contains(' ');
    if acronym || words::org_like(p) || (mixed_caps(p) && p.split_whitespace().count() <= 5) {
        let name = p
            .trim_end_matches(" Photo")
            .trim_end_matches(" PHOTO")
            .to_string();
        items.push(Item::Org(name, None));
        return Some(items);
    }
    None
}

/// Whether the items so far end with a person credited by full name.
fn ends_with_full_name(items: &[(Sep, Item)]) -> bool {
    matches!(items.last(), Some((_, Item::Person(p))) if p.trim().contains(' '))
}

/// A credit's grammar: `Name/Body`, `Name, Body`. After a full name, a separator opens
/// the organisation's slot, so a piece there that reads as a name is a body the table
/// lacks (`Jane Roe/Concern Worldwide`), unless it is a second full name joined by a
/// comma (`Jane Roe, John Doe`).
fn after_full_name(items: &[(Sep, Item)], sep: Sep, piece: &str, list: Vec<Item>) -> Vec<Item> {
    let slot = sep == Sep::Slash && ends_with_full_name(items);
    if slot && matches!(list.as_slice(), [Item::Person(_)] | [Item::Org(_, None)]) {
        if let Some(o) = orgs::lookup_misspelt(piece) {
            return vec![Item::Org(o.name.to_string(), Some(o.kind))];
        }
    }
    match list.as_slice() {
        [Item::Person(p)] if slot && words::org_like(p) => {
            vec![Item::Org(piece.trim().to_string(), None)]
        }
        _ => list,
    }
}

/// A piece nothing else reads, in the organisation's slot after a full name: a body the
/// table lacks (`Name/Flash90`, `(Name, EPS)`), when it is short and capitalised.
fn by_position(items: &[(Sep, Item)], sep: Sep, piece: &str, mode: Mode) -> Option<Vec<Item>> {
    // A comma bounds a credit only inside brackets or after a marker: in running text
    // `South Sudan, August 26` is a place and a day.
    let slot = sep == Sep::Slash || (sep == Sep::Comma && mode == Mode::Exact);
    if !slot || !ends_with_full_name(items) {
        return None;
    }
    let p = piece.trim();
    if let Some(o) = orgs::lookup_misspelt(p) {
        return Some(vec![Item::Org(o.name.to_string(), Some(o.kind))]);
    }
    let first = p.chars().next()?;
    let letters = p.chars().filter(|c| c.is_alphabetic()).count();
    let short = p.split_whitespace().count() <= 5 && p.len() <= 40;
    (short && letters >= 2 && (first.is_uppercase() || first.is_ascii_digit()) && !is_date(p))
        .then(|| vec![Item::Org(p.to_string(), None)])
}

/// A credit written in lower case (`epa / jane roe`, `tyrone siu/Reuters`): a piece
/// beside a wire's or photo agency's name across a slash reads as in any case.
fn lower_case_chain(
    joined: &[(Sep, usize, usize)],
    s: &str,
    idx: usize,
    mode: Mode,
    piece: &str,
) -> Option<Vec<Item>> {
    let wire = |i: usize| {
        joined.get(i).and_then(|&(_, a, e)| {
            orgs::lookup(s[a..e].trim()).filter(|o| matches!(o.kind, Kind::Wire | Kind::Photo))
        })
    };
    let slash_after = joined.get(idx + 1).is_some_and(|x| x.0 == Sep::Slash);
    let slash_before = joined[idx].0 == Sep::Slash;
    let p = piece.trim();
    if !p.chars().any(char::is_lowercase) || p.chars().any(char::is_uppercase) {
        return None;
    }
    if let Some(o) = orgs::lookup(p).filter(|o| matches!(o.kind, Kind::Wire | Kind::Photo)) {
        if slash_after || slash_before {
            return Some(vec![Item::Org(o.name.to_string(), Some(o.kind))]);
        }
    }
    let neighbour = (slash_after && wire(idx + 1).is_some())
        || (slash_before && idx > 0 && wire(idx - 1).is_some());
    let n = p.split_whitespace().count();
    let name = (2..=3).contains(&n)
        && p.split_whitespace()
            .all(|w| w.chars().all(char::is_alphabetic));
    // In a tail only the credit's whole sentence may be read so (not `... killed/Reuters`).
    let whole = mode != Mode::Tail || idx == 0;
    (neighbour && name && whole).then(|| vec![Item::Person(p.to_string())])
}

/// A name and an organisation with no separator between them (`Valery Hache Agence
/// France-Presse`, `Reuters Khalil Ashawi`).
fn split_run(p: &str) -> Option<Vec<Item>> {
    let w = words::word_spans(p);
    if w.len() < 2 {
        return None;
    }
    if let Some(items) = name_for_body(p).or_else(|| hyphen_glued(p)) {
        return Some(items);
    }
    // `Express Photo by Name`, `UN Photo by Name`: the body's photo, by the person.
    if let Some(by) = p.find(" by ") {
        let (body, name) = (&p[..by], p[by + 4..].trim());
        if let Some(o) = orgs::lookup(body) {
            if words::person_like(name) {
                return Some(vec![
                    Item::Org(o.name.to_string(), Some(o.kind)),
                    Item::Person(name.to_string()),
                ]);
            }
        }
    }
    if let Some((i, o)) = words::org_ending_at(p, &w, w.len()) {
        let name = p[..w[i].0].trim_end();
        let name = name.strip_suffix(" for").unwrap_or(name);
        // `Ukraine's State Emergency Service`: a possessive names the body, not a person.
        if i > 0 && name.ends_with(['s', 'S']) && name[..name.len() - 1].ends_with(['\'', '’']) {
            return Some(vec![Item::Org(o.name.to_string(), Some(o.kind))]);
        }
        if i > 0 && words::person_like(name) && !words::org_like(name) {
            return Some(vec![
                Item::Person(name.trim().to_string()),
                Item::Org(o.name.to_string(), Some(o.kind)),
            ]);
        }
    }
    if let Some((j, o)) = words::org_starting_at(p, &w, 0) {
        // `AP stringer`, `Reuters staff`: the body and how the picture came.
        if let Some(r) = words::role(&p[w.get(j)?.0..]) {
            return Some(vec![
                Item::Org(o.name.to_string(), Some(o.kind)),
                Item::Role(r),
            ]);
        }
        let name = &p[w.get(j)?.0..];
        // (`Ukrainian Police Department Press Service`: one body's longer name.)
        if words::person_like(name) && !words::org_like(name) {
            return Some(vec![
                Item::Org(o.name.to_string(), Some(o.kind)),
                Item::Person(name.trim().to_string()),
            ]);
        }
    }
    None
}

/// `Name for the Outlet`: the photographer, and the body the picture was made for, known
/// or not.
fn name_for_body(p: &str) -> Option<Vec<Item>> {
    // (`pour`, `para`, `für`, `per`: the same in French, Spanish and Portuguese, German,
    // Italian.)
    let (name, body) = [" for ", " pour ", " para ", " für ", " per "]
        .iter()
        .find_map(|w| p.split_once(w))?;
    let body = body.trim();
    let core = body
        .strip_prefix("the ")
        .or_else(|| body.strip_prefix("The "))
        .unwrap_or(body);
    let capital = core.chars().next().is_some_and(char::is_uppercase);
    let org = match orgs::lookup(body) {
        Some(o) => Item::Org(o.name.to_string(), Some(o.kind)),
        None if capital && words::title_run(core) => Item::Org(body.to_string(), None),
        None => return None,
    };
    let name = name.trim();
    (name.split_whitespace().count() >= 2 && words::person_like(name) && !words::org_like(name))
        .then(|| vec![Item::Person(name.to_string()), org])
}

/// `REUTERS-Jane Roe`, `Jane Roe-AFP`: an agency's name glued to the photographer's by an
/// unspaced hyphen.
fn hyphen_glued(p: &str) -> Option<Vec<Item>> {
    let (left, right) = p.split_once('-')?;
    if left.contains(' ') && right.contains(' ') {
        return None;
    }
    let agency = |x: &str| {
        orgs::lookup(x)
            .filter(|o| matches!(o.kind, Kind::Wire | Kind::Photo) && words::all_caps(x))
            .map(|o| Item::Org(o.name.to_string(), Some(o.kind)))
    };
    let person = |x: &str| {
        (x.contains(' ') && words::person_like(x) && !words::org_like(x))
            .then(|| Item::Person(x.to_string()))
    };
    if let (Some(o), Some(n)) = (agency(left), person(right)) {
        return Some(vec![o, n]);
    }
    let (n, o) = (person(left)?, agency(right)?);
    Some(vec![n, o])
}

/// The credit's start inside a first piece that also holds caption words: an organisation
/// or a name bounded by case. Returns the offset in `p` and its items.
fn tail_of(p: &str) -> Option<(usize, Vec<Item>)> {
    let spans = words::word_spans(p);
    let w: Vec<&str> = spans.iter().map(|&(a, e)| &p[a..e]).collect();
    let n = w.len();
    if let Some((i, o)) = words::org_ending_at(p, &spans, n) {
        let org = Item::Org(o.name.to_string(), Some(o.kind));
        let wire = matches!(o.kind, Kind::Wire | Kind::Photo);
        if let Some(k) = words::name_ending_at(&w, i, wire) {
            let name = p[spans[k].0..spans[i - 1].1].to_string();
            return Some((spans[k].0, vec![Item::Person(name), org]));
        }
        // An agency named last in a sentence (`a spokesman told Reuters`) is the story's
        // unless written as a credit: in capitals, or after a date.
        let written = &p[spans[i].0..];
        let after_date = i > 0
            && w[i - 1]
                .trim_end_matches([',', '.'])
                .ends_with(|c: char| c.is_ascii_digit());
        return (words::all_caps(written) || after_date || i == 0).then(|| (spans[i].0, vec![org]));
    }
    let k = words::name_ending_at(&w, n, false)?;
    Some((spans[k].0, vec![Item::Person(p[spans[k].0..].to_string())]))
}

/// The credit's end inside a last piece that runs on into the caption.
fn lead_of(p: &str) -> Option<(usize, Vec<Item>)> {
    let spans = words::word_spans(p);
    let w: Vec<&str> = spans.iter().map(|&(a, e)| &p[a..e]).collect();
    if let Some((j, o)) = words::org_starting_at(p, &spans, 0) {
        let org = Item::Org(o.name.to_string(), Some(o.kind));
        return Some((spans[j - 1].1, vec![org]));
    }
    let j = words::name_starting_at(&w, 0)?;
    let end = spans[j - 1].1;
    let mut items = vec![Item::Person(p[..end].to_string())];
    if let Some((k, o)) = words::org_starting_at(p, &spans, j) {
        items.push(Item::Org(o.name.to_string(), Some(o.kind)));
        return Some((spans[k - 1].1, items));
    }
    Some((end, items))
}

/// Joins again the pieces of names that hold a slash (`REX/Shutterstock`, `EFE/EPA`).
fn join_slashed_names(s: &str, ps: Vec<(Sep, usize, usize)>) -> Vec<(Sep, usize, usize)> {
    let mut joined: Vec<(Sep, usize, usize)> = Vec::new();
    for (sep, a, e) in ps {
        if let Some(last) = joined.last_mut() {
            if sep == Sep::Slash
                && !s[last.1..last.2].trim().is_empty()
                && orgs::lookup(&s[last.1..e]).is_some()
            {
                last.2 = e;
                continue;
            }
        }
        joined.push((sep, a, e));
    }
    joined
}

/// Cuts the name that ends `items` where a name before a caption ends; returns the
/// credit's new end in `s`.
fn cut_run_on_name(s: &str, items: &mut [(Sep, Item)], end: usize) -> Option<usize> {
    let Some((_, Item::Person(name))) = items.last_mut() else {
        return None;
    };
    let spans = words::word_spans(name);
    let w: Vec<&str> = spans.iter().map(|&(x, y)| &name[x..y]).collect();
    let j = words::name_starting_at(&w, 0)?;
    let cut = spans[j - 1].1;
    // The name ends its piece, so the credit now ends `cut` bytes into it.
    let new_end = if s.get(end.saturating_sub(name.len())..end) == Some(name.as_str()) {
        end - name.len() + cut
    } else {
        end
    };
    name.truncate(cut);
    Some(new_end)
}

/// Parses a credit's text.
pub fn parse(s: &str, mode: Mode) -> Option<Parsed> {
    let joined = join_slashed_names(s, pieces(s));
    let mut items: Vec<(Sep, Item)> = Vec::new();
    let (mut start, mut end) = (usize::MAX, 0);
    let n = joined.len();
    let mut idx = 0;
    while idx < n {
        let (sep, a, e) = joined[idx];
        let (a, e) = trim_range(s, a, e);
        let piece = &s[a..e];
        if piece.is_empty() {
            if idx == n - 1 && mode == Mode::Lead {
                break;
            }
            idx += 1;
            continue;
        }
        // Before the caption, the last piece runs on into the caption's first words.
        let runs_on = mode == Mode::Lead && idx == n - 1 && !items.is_empty();
        // So does a piece after a slash that a comma ends when more words follow its
        // organisation or name (`Name/AFP/Getty Images Baghdad, IRAQ: ...`).
        let before_comma = joined.get(idx + 1).is_some_and(|x| x.0 == Sep::Comma);
        if mode == Mode::Lead && !runs_on && sep == Sep::Slash && before_comma {
            if let Some((off, list)) = lead_of(piece).filter(|(off, _)| *off < piece.len()) {
                start = start.min(a);
                end = a + off;
                items.extend(list.into_iter().map(|it| (sep, it)));
                break;
            }
        }
        // Outside brackets or markers, an uncased first piece may be caption words as
        // well as a name: it is taken for caption words.
        let caption_words = mode != Mode::Exact && items.is_empty() && words::uncased(piece);
        let read = classify(piece)
            .map(|list| after_full_name(&items, sep, piece, list))
            .or_else(|| by_position(&items, sep, piece, mode))
            .or_else(|| lower_case_chain(&joined, s, idx, mode, piece));
        match read.filter(|_| !runs_on && !caption_words) {
            Some(list) => {
                start = start.min(a);
                end = e;
                items.extend(list.into_iter().map(|it| (sep, it)));
            }
            None if mode == Mode::Tail => {
                // Caption words before the credit: what was read so far is caption too,
                // and the credit starts inside this piece or after it.
                items.clear();
                start = usize::MAX;
                if let Some((off, list)) = tail_of(piece) {
                    start = a + off;
                    end = e;
                    items.extend(list.into_iter().map(|it| (sep, it)));
                }
            }
            None if mode == Mode::Lead => {
                if let Some((off, list)) = lead_of(piece) {
                    start = start.min(a);
                    end = a + off;
                    items.extend(list.into_iter().map(|it| (sep, it)));
                } else if let Some(e) = cut_run_on_name(s, &mut items, end) {
                    // The caption began inside the previous piece (`UNHCR/M Name For
                    // Safiah, life has...`): its name is cut as a name before a caption.
                    end = e;
                } else {
                    // The caption began inside the first piece (`Bild: AFP Zerstörung,
                    // Angst ...`): only its opening words are credit.
                    if idx != 1 {
                        return None;
                    }
                    (start, end, items) = first_piece_lead(s, joined[0])?;
                }
                break;
            }
            None => return None,
        }
        idx += 1;
    }
    if items.is_empty() {
        return None;
    }
    if mode == Mode::Tail && !comma_in_tail_ok(s, &items, start) {
        return None;
    }
    Some(assemble(items, start.min(end), end))
}

/// A credit's start and end in its text, and its items in order.
type Reading = (usize, usize, Vec<(Sep, Item)>);

/// The opening words of the first piece, when the caption begins inside it.
fn first_piece_lead(s: &str, first: (Sep, usize, usize)) -> Option<Reading> {
    let (a0, e0) = trim_range(s, first.1, first.2);
    let (off, list) = lead_of(&s[a0..e0]).filter(|(off, _)| a0 + off < e0)?;
    let items = list.into_iter().map(|it| (Sep::Start, it)).collect();
    Some((a0, a0 + off, items))
}

/// In a tail, a name or body before a comma belongs to the caption unless it is an
/// agency the table knows (`RIA Novosti, Alexei Druzhinin/Pool via AP`), or the whole
/// sentence is credit (`Name, Denver Post - 2009`) with a body the table knows after
/// the comma.
fn comma_in_tail_ok(s: &str, items: &[(Sep, Item)], start: usize) -> bool {
    let Some(pos) = items.iter().position(|(sep, _)| *sep == Sep::Comma) else {
        return true;
    };
    let before_known = items[..pos]
        .iter()
        .all(|(_, it)| matches!(it, Item::Org(_, Some(_)) | Item::Role(_)));
    let whole = s[..start.min(s.len())].trim().is_empty()
        && items[pos..]
            .iter()
            .any(|(_, it)| matches!(it, Item::Org(_, Some(_))));
    before_known || whole
}

/// The trade's conventions on who is agency and who distributor, applied to the bodies
/// named in order (`orgs`, before any `via`).
fn settle(
    orgs_before: &mut Vec<String>,
    people: &mut Vec<String>,
    via: bool,
    last_after_slash: bool,
) {
    // `Name/Metrography`, `Sky via AP`: a one-word name beside other names or before
    // `via`, with no body named, is the body (people are credited by full name).
    // `Photo: Star`, `©Al-Markazia`: a credit of one word and nothing else names a body.
    if orgs_before.is_empty()
        && !via
        && people.len() == 1
        && !people[0].contains(' ')
        && !people[0].starts_with('@')
        && people[0].chars().next().is_some_and(char::is_uppercase)
    {
        orgs_before.push(people.pop().unwrap_or_default());
        return;
    }
    if orgs_before.is_empty()
        && (via || (people.len() >= 2 && last_after_slash))
        && people
            .last()
            .is_some_and(|p| !p.contains(' ') && !p.starts_with('@'))
    {
        orgs_before.push(people.pop().unwrap_or_default());
    }
    // `AFP Photo/Satellite image Maxar`, `AFP/HO/SANA`: a wire passing on a body's own
    // picture distributes it; the body is the agency.
    if people.is_empty() && !via && orgs_before.len() == 2 {
        let kind = |n: &str| orgs::lookup(n).map(|o| o.kind);
        if kind(&orgs_before[0]) == Some(Kind::Wire) && kind(&orgs_before[1]) == Some(Kind::Handout)
        {
            orgs_before.swap(0, 1);
        }
    }
    // `picture alliance/dpa/AP | Name`: the German portal names the chain from itself
    // back to the maker (an AP picture passed on by dpa).
    if orgs_before.len() >= 2 && orgs_before[0] == "Picture Alliance" {
        let portal = orgs_before.remove(0);
        orgs_before.reverse();
        if orgs_before.len() == 1 {
            orgs_before.push(portal);
        }
    }
    // `Name/EPA/EFE` and `EFE/EPA/Name` are the one agency EPA-EFE.
    if orgs_before.iter().any(|o| o == "EPA") {
        orgs_before.retain(|o| o != "EFE");
    }
}

/// Military ranks written before a name in armed forces' credits (`U.S. Army photo by
/// Spc. Jane Roe`): the rank is no part of the name.
const RANKS: &[&str] = &[
    "Spc. ",
    "Sgt. ",
    "Staff Sgt. ",
    "Tech. Sgt. ",
    "Master Sgt. ",
    "Sgt. 1st Class ",
    "Cpl. ",
    "Lance Cpl. ",
    "Pfc. ",
    "Pvt. ",
    "Lt. ",
    "1st Lt. ",
    "2nd Lt. ",
    "Capt. ",
    "Maj. ",
    "Col. ",
    "Lt. Col. ",
    "Senior Airman ",
    "Airman 1st Class ",
    "Airman ",
    "Petty Officer 1st Class ",
    "Petty Officer 2nd Class ",
    "Petty Officer 3rd Class ",
    "Chief Petty Officer ",
    "Seaman ",
    "Cadet ",
];

/// A name without the full stop that ends its sentence or a rank before it; `Jr.` and
/// `Sr.` keep their stops.
fn person_name(p: &str) -> String {
    let mut p = p.trim();
    if let Some(r) = RANKS
        .iter()
        .filter(|r| p.starts_with(**r) && p.len() > r.len() + 2)
        .max_by_key(|r| r.len())
    {
        p = p[r.len()..].trim_start();
    }
    let suffix = [" Jr.", " Sr.", " jr.", " JR.", " SR."];
    if suffix.iter().any(|s| p.ends_with(s)) {
        return p.to_string();
    }
    p.trim_end_matches('.').to_string()
}

/// People are credited by full name: a one-word piece after a slash that follows a full
/// name is a body the table lacks (`Name Roe/ImagesLive/Alamy`).
fn bodies_beside_names(mut items: Vec<(Sep, Item)>) -> Vec<(Sep, Item)> {
    let mut named = false;
    for (sep, it) in &mut items {
        if let Item::Person(p) = it {
            let one_word = !p.trim().contains(' ') && !p.starts_with('@');
            if named && one_word && *sep == Sep::Slash {
                *it = Item::Org(p.trim().to_string(), None);
            } else if !one_word {
                named = true;
            }
        }
    }
    items
}

fn assemble(items: Vec<(Sep, Item)>, start: usize, end: usize) -> Parsed {
    let mut out = Parsed {
        start,
        end,
        ..Parsed::default()
    };
    let mut orgs_before: Vec<String> = Vec::new();
    let mut via: Option<String> = None;
    let mut after_via = false;
    let mut last_after_slash = false;
    let flag = |f: CreditFlag, flags: &mut Vec<CreditFlag>| {
        if !flags.contains(&f) {
            flags.push(f);
        }
    };
    out.pieces = items.len();
    for (sep, it) in bodies_beside_names(items) {
        if sep == Sep::Via {
            after_via = true;
        }
        match it {
            Item::Person(p) => {
                let p = person_name(&p);
                last_after_slash = sep == Sep::Slash && !p.contains(' ');
                if !out
                    .people
                    .iter()
                    .any(|q| q.to_lowercase() == p.to_lowercase())
                {
                    out.people.push(p);
                }
            }
            Item::Org(name, kind) => {
                out.known |= kind.is_some();
                if kind == Some(Kind::Pool) {
                    flag(CreditFlag::Pool, &mut out.flags);
                }
                if after_via && via.is_none() {
                    via = Some(name);
                } else if !orgs_before.contains(&name) && via.as_deref() != Some(&name) {
                    orgs_before.push(name);
                }
            }
            Item::Role(r) => match r {
                Role::Stringer => flag(CreditFlag::Stringer, &mut out.flags),
                Role::Handout => flag(CreditFlag::Handout, &mut out.flags),
                Role::File => flag(CreditFlag::File, &mut out.flags),
                Role::Pool => {
                    flag(CreditFlag::Pool, &mut out.flags);
                    if !orgs_before.iter().any(|o| o == "Pool") {
                        orgs_before.push("Pool".to_string());
                    }
                }
                Role::Empty => {}
            },
            Item::Skip => {}
        }
    }
    settle(
        &mut orgs_before,
        &mut out.people,
        via.is_some(),
        last_after_slash,
    );
    out.agency = orgs_before.first().cloned();
    out.distributor = via.or_else(|| orgs_before.get(1).cloned());
    if out.agency.is_none() && out.people.is_empty() && out.flags.is_empty() {
        out.agency = out.distributor.take();
    }
    out
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
