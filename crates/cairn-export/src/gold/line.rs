//! A reviewed caption as a gold line: the keys of the corpora's format, in their order,
//! each absent where the record states nothing.

use cairn_model::{PlaceKind, Record};
use cairn_store::ExportedCaption;
use serde::Serialize;

/// One line of the annotation format.
#[derive(Debug, Clone, Serialize)]
pub struct GoldLine {
    /// The caption.
    pub text: String,
    /// The first source it was read from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The host of that source, for a web page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outlet: Option<String>,
    /// The caption's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The scene's date: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// People credited; absent when there is no credit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub photographers: Option<Vec<String>>,
    /// The organisation credited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agency: Option<String>,
    /// The organisation that passed it on: null in a credit without one, absent
    /// without a credit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distributor: Option<Option<String>>,
    /// Where the photograph was taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<GoldLocation>,
    /// The scene's dead, the low figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub killed: Option<u32>,
    /// The scene's injured, the low figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injured: Option<u32>,
    /// The first event type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    /// Where the line comes from: the caption and what people did to it.
    pub note: String,
}

/// A gold location.
#[derive(Debug, Clone, Serialize)]
pub struct GoldLocation {
    /// The place as written.
    pub text: String,
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lon: f64,
    /// How far from the point a location may be and still be right.
    pub tolerance_km: f64,
    /// ISO 3166-1 alpha-2.
    pub country: Option<String>,
}

/// The corpora's tolerance for a place of this kind: a town's, a district's, a
/// province's; a country's point is its centroid, which only the country bounds.
fn tolerance_km(kind: PlaceKind) -> f64 {
    match kind {
        PlaceKind::Point | PlaceKind::Neighbourhood | PlaceKind::Town => 10.0,
        PlaceKind::Admin2 => 25.0,
        PlaceKind::Admin1 | PlaceKind::Region => 50.0,
        PlaceKind::Country => 1000.0,
    }
}

/// The host of an `http` or `https` URI.
fn host(uri: &str) -> Option<String> {
    let rest = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?.split(':').next()?;
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

fn fields(line: &mut GoldLine, r: &Record) {
    line.lang = r.lang.clone();
    line.date = r.date.as_ref().map(|d| d.value.clone());
    if let Some(c) = &r.credit {
        line.photographers = Some(c.photographers.clone());
        line.agency = c.agency.clone();
        line.distributor = Some(c.distributor.clone());
    }
    line.location = r.location.as_ref().map(|l| GoldLocation {
        text: l.text.clone(),
        lat: l.lat,
        lon: l.lon,
        tolerance_km: tolerance_km(l.kind),
        country: l.country.clone(),
    });
    line.killed = r.casualties.killed.as_ref().map(|c| c.low);
    line.injured = r.casualties.injured.as_ref().map(|c| c.low);
    line.event_type = r.event_types.first().cloned();
}

/// The gold line of a caption a person verified or corrected, or `None`: a record no
/// one reviewed is the machine's word, and a disputed one no one's.
pub fn gold_line(c: &ExportedCaption) -> Option<GoldLine> {
    let review = &c.review;
    if review.disputed || (!review.verified && review.corrected.is_empty()) {
        return None;
    }
    let source = c.sources.first().map(|s| s.uri.clone());
    let mut note = format!("cairn caption {}", c.id);
    if review.verified {
        note.push_str(", verified");
    }
    if !review.corrected.is_empty() {
        note.push_str(&format!(", corrected: {}", review.corrected.join(", ")));
    }
    let mut line = GoldLine {
        text: c.text.clone(),
        outlet: source.as_deref().and_then(host),
        source,
        lang: None,
        date: None,
        photographers: None,
        agency: None,
        distributor: None,
        location: None,
        killed: None,
        injured: None,
        event_type: None,
        note,
    };
    if let Some(r) = &c.record {
        fields(&mut line, r);
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outlet_is_the_host_of_a_web_source() {
        assert_eq!(
            host("https://User@News.Example.org:8443/gallery?id=3").as_deref(),
            Some("news.example.org")
        );
        assert_eq!(host("file:///tmp/page.txt"), None);
        assert_eq!(host("http:///nohost"), None);
    }
}
