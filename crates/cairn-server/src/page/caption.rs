//! A caption's page (its record with each field a link to the search filtered on it,
//! every variant set against the canonical text, every source with when it was first
//! seen) and a source's page (its text with the captions marked).

use std::fmt::Write as _;

use cairn_gazetteer::reader_name;
use cairn_model::{Place, Span};
use cairn_store::{Archive, CaptionView, Revision, SourceView};
use maud::{Markup, PreEscaped, html};

use super::text::{highlighted, query_terms, word_diff};
use super::{State, field, layout, plural};

/// A link to the search filtered on one field's value.
fn search_link(key: &'static str, value: &str, label: &str) -> Markup {
    html! { a href=(State::default().with(&[(key, value)])) { (label) } }
}

/// A toll as it reads: `19`, or `19–25` when the caption gives a range.
fn toll(low: u32, high: Option<u32>) -> String {
    match high {
        Some(h) if h != low => format!("{low}–{h}"),
        _ => low.to_string(),
    }
}

/// Why the extractor took this place as the scene, and how sure it is: a reader checks
/// a low-confidence place before citing it.
fn place_evidence(l: &Place) -> Markup {
    html! {
        @if l.reason.is_some() || l.confidence.is_some() {
            br;
            span.why {
                @if let Some(reason) = &l.reason { "from “" span dir="auto" { (reason) } "”" }
                @if let Some(c) = l.confidence {
                    @if l.reason.is_some() { " · " }
                    span class=(format!("confidence {}", c.as_str())) { (c.as_str()) " confidence" }
                }
            }
        }
    }
}

/// What a credit's flag tells a reader of the photograph.
fn flag_meaning(flag: &str) -> &'static str {
    match flag {
        "handout" => "handed out by a party to the events, not shot by the agency",
        "pool" => "shot for a pool of news organisations",
        "file" => "a file photograph, taken earlier than the caption's events",
        "stringer" => "shot by a freelance stringer",
        _ => "as the credit states it",
    }
}

/// The record's fields; `country` is the location's country by name.
fn record_table(c: &CaptionView, country: Option<&str>) -> Markup {
    let Some(r) = c.record.as_ref() else {
        return html! {};
    };
    html! {
        table.record {
            @if let Some(cr) = &r.credit {
                (field("Credit", html! {
                    bdi { (cr.raw) }
                    @for f in &cr.flags { " " span.badge title=(flag_meaning(f.as_str())) { (f.as_str()) } }
                }))
                @if !cr.photographers.is_empty() {
                    (field("Photographers", html! {
                        @for (i, p) in cr.photographers.iter().enumerate() {
                            @if i > 0 { ", " }
                            (search_link("photographer", p, p))
                        }
                    }))
                }
                @if let Some(a) = &cr.agency { (field("Agency", search_link("agency", a, a))) }
                @if let Some(d) = &cr.distributor { (field("Distributor", search_link("agency", d, d))) }
            }
            @if let Some(d) = &r.date {
                (field("Date", html! { (d.value) span.muted { " (" (d.precision.as_str()) ", from “" span dir="auto" { (d.text) } "”)" } }))
            }
            @if let Some(l) = &r.location {
                (field("Location", html! {
                    (search_link("place", l.gazetteer_id.as_deref().unwrap_or(&l.name), reader_name(&l.name, &l.text)))
                    @if reader_name(&l.name, &l.text) != l.name { span.muted { " (" (l.name) ")" } }
                    @if let Some(a) = &l.admin1 { ", " (a) }
                    @if let Some(cc) = &l.country { ", " (search_link("country", cc, country.unwrap_or(cc))) }
                    span.muted { " (" (l.kind.as_str()) ", " (format!("{:.4}, {:.4}", l.lat, l.lon)) ")" }
                    (place_evidence(l))
                }))
            }
            @if !r.places.is_empty() {
                (field("Places", html! {
                    @for (i, p) in r.places.iter().enumerate() {
                        @if i > 0 { ", " }
                        (search_link("place", p.gazetteer_id.as_deref().unwrap_or(&p.name), reader_name(&p.name, &p.text)))
                    }
                }))
            }
            @if let Some(k) = &r.casualties.killed { (field("Killed", html! { (toll(k.low, k.high)) span.muted { " (“" span dir="auto" { (k.text) } "”)" } })) }
            @if let Some(k) = &r.casualties.injured { (field("Injured", html! { (toll(k.low, k.high)) span.muted { " (“" span dir="auto" { (k.text) } "”)" } })) }
            @if !r.persons.is_empty() { (field("People", html! { (r.persons.join(", ")) })) }
            @if !r.organizations.is_empty() { (field("Organisations", html! { (r.organizations.join(", ")) })) }
            @if !r.event_types.is_empty() {
                (field("Event types", html! {
                    @for (i, e) in r.event_types.iter().enumerate() {
                        @if i > 0 { ", " }
                        (search_link("event", e, e))
                    }
                }))
            }
            @if !r.sources.is_empty() { (field("According to", html! { (r.sources.join(", ")) })) }
            @if !r.warnings.is_empty() { (field("Warnings", html! { (r.warnings.join("; ")) })) }
        }
    }
}

/// A correction form posted and drawn again: the values as typed (none: the current
/// ones) and what came of the post.
#[derive(Debug, Default)]
pub(crate) struct Posted {
    pub form: Option<super::EditForm>,
    pub outcome: Option<super::Outcome>,
}

/// Sources whose first-seen time is looked up for a caption page at most.
const SEEN_SOURCES: usize = 200;

/// When each of a caption's sources was first stored: (source id, time).
pub(crate) fn first_seen(a: &Archive, c: &CaptionView) -> Vec<(i64, String)> {
    c.sources
        .iter()
        .take(SEEN_SOURCES)
        .filter_map(|s| a.source(s.id).ok().flatten().map(|v| (s.id, v.ingested_at)))
        .collect()
}

/// One caption: its record, every variant and every source it appeared on, with when
/// each source was first stored (`first_seen`: source id and time); `country` names the
/// location's country.
pub(crate) fn caption_page(
    c: &CaptionView,
    back: &State,
    first_seen: &[(i64, String)],
    country: Option<&str>,
    history: &[Revision],
    edit: &Posted,
) -> Markup {
    let short: String = c.text.chars().take(80).collect();
    let seen = |id: i64| {
        first_seen
            .iter()
            .find(|(s, _)| *s == id)
            .map(|(_, t)| t.as_str())
    };
    let body = html! {
        main.caption-page {
            p { a.back href=(back.with(&[])) { "← back to results" } }
            h1 { "Caption #" (c.id) }
            p.text.big dir="auto" { (highlighted(&c.text, c.record.as_ref(), &query_terms(back.get("q").unwrap_or("")))) }
            (super::text::legend())
            (record_table(c, country))
            (super::history::review_section(&c.review, history))
            @let viewer = super::Viewer::current();
            @if let (true, Some(csrf)) = (viewer.may_edit(), viewer.csrf.as_deref()) {
                @let drawn = super::EditForm::of(c.record.as_ref(), &c.review);
                (super::edit::edit_form(c.id, edit.form.as_ref().unwrap_or(&drawn), csrf, edit.outcome.as_ref()))
            }
            @if !c.translations.is_empty() {
                h2 { "The same photograph in other languages" }
                ul.translations {
                    @for t in &c.translations {
                        li {
                            a href=(format!("/captions/{}{}", t.id, back.query_string())) { "#" (t.id) }
                            @if let Some(l) = &t.lang { " " span.lang { (l) } }
                            " " span.text dir="auto" { (t.text) }
                        }
                    }
                }
            }
            h2 { (plural(c.variants.len() as u64, "variant")) " of the text" }
            @if c.variants.len() > 1 {
                p.muted { "Each variant is set against the canonical text (the first): " ins { "words only in the variant" } ", " del { "words only in the canonical text" } "." }
            }
            ol.variants {
                @for (i, v) in c.variants.iter().enumerate() {
                    li.variant {
                        p.text dir="auto" {
                            @if i == 0 { (v.text) } @else { (word_diff(&c.text, &v.text)) }
                        }
                        ul.occurrences {
                            @for o in &v.occurrences {
                                li {
                                    a href=(format!("/sources/{}#c{}", o.source.id, o.ordinal)) { (o.source.uri) }
                                    @if let Some(t) = seen(o.source.id) { span.seen { " · first seen " time datetime=(t) { (t) } } }
                                    span.muted { " · bytes " (o.span.start) "–" (o.span.end) " · sha256 " code { (o.source.sha256) } }
                                }
                            }
                        }
                    }
                }
            }
            p.muted { a href=(format!("/api/captions/{}", c.id)) { "as JSON" } }
        }
    };
    layout(&format!("#{} {short}", c.id), Some(back), body)
}

/// One source: metadata and its text with the captions marked.
pub(crate) fn source_page(v: &SourceView, text: Option<&str>) -> Markup {
    let body = html! {
        main.source-page {
            p { a href="/" { "← search" } }
            h1 { "Source #" (v.id) }
            table.record {
                (field("URI", html! { (v.uri) }))
                (field("sha256", html! { code { (v.sha256) } }))
                (field("Kind", html! { (v.kind) ", " (v.encoding) ", " (v.size) " bytes" }))
                (field("First seen", html! { (v.ingested_at) }))
                @if !v.warnings.is_empty() { (field("Warnings", html! { (v.warnings.join("; ")) })) }
            }
            h2 { (plural(v.captions.len() as u64, "caption")) }
            @if let Some(text) = text {
                div.source-text dir="auto" { (marked_source(text, &v.captions)) }
            }
            p.muted { a href=(format!("/api/sources/{}", v.id)) { "as JSON" } }
        }
    };
    layout(&format!("source #{}", v.id), Some(&State::default()), body)
}

fn marked_source(text: &str, captions: &[(u64, i64, Span)]) -> Markup {
    let mut out = String::new();
    let mut at = 0;
    let mut sorted: Vec<&(u64, i64, Span)> = captions.iter().collect();
    sorted.sort_by_key(|(_, _, s)| s.start);
    for (ordinal, id, span) in sorted {
        let ok = span.start >= at
            && span.end <= text.len()
            && text.is_char_boundary(span.start)
            && text.is_char_boundary(span.end);
        if !ok {
            continue;
        }
        out.push_str(&html! { (text[at..span.start]) }.into_string());
        let _ = write!(
            out,
            "{}",
            html! {
                a.occ id=(format!("c{ordinal}")) href=(format!("/captions/{id}")) { (text[span.start..span.end]) }
            }
            .into_string()
        );
        at = span.end;
    }
    out.push_str(&html! { (text[at..]) }.into_string());
    PreEscaped(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toll_of_one_number_reads_as_one() {
        assert_eq!(toll(19, Some(19)), "19");
        assert_eq!(toll(19, None), "19");
        assert_eq!(toll(19, Some(25)), "19–25");
    }
}
