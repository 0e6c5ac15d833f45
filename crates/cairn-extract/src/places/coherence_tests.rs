//! Fixtures for the choices the rest of the caption contradicts, and for names the place
//! reading used to miss (our own sentences in real shapes).

use crate::Extractor;

fn extractor() -> &'static Extractor {
    static EX: std::sync::LazyLock<Extractor> = std::sync::LazyLock::new(Extractor::bundled);
    &EX
}

/// The location's name and country, if any.
fn scene(caption: &str) -> Option<(String, String)> {
    extractor()
        .extract(caption)
        .location
        .map(|p| (p.name, p.country.unwrap_or_default()))
}

#[test]
fn a_country_written_after_a_place_holds_it() {
    // No town of this spelling in Chad is known: the namesake across the border is no
    // answer, the country written after the name is.
    let got = scene(
        "A girl who fled Darfur walks past shelters while taking refuge in Borota, Chad, near the border.",
    );
    assert_eq!(got.map(|(_, cc)| cc).as_deref(), Some("TD"));
}

#[test]
fn a_small_namesake_on_another_continent_is_no_scene() {
    let got = scene(
        "Rebels fire weapons during an assault in the town of Kaya, on the border with Uganda, South Sudan, August 26.",
    );
    assert_ne!(got.map(|(_, cc)| cc).as_deref(), Some("BF"));
}

#[test]
fn a_spelling_match_far_from_the_named_city_is_dropped() {
    let got = scene(
        "Dancers wait for the start of the festival in the Koenji neighborhood of Tokyo on Saturday.",
    );
    assert_eq!(got.map(|(n, _)| n).as_deref(), Some("Tokyo"));
}

#[test]
fn names_the_reading_used_to_miss() {
    // A lower-case Arabic article before a capital.
    let got = scene("Fighters fire towards positions held by militants in al-Bab on Tuesday.");
    assert_eq!(got.map(|(_, cc)| cc).as_deref(), Some("SY"));
    // `Abu X` is a person's name pattern, but Abu Dhabi is the city.
    let got = scene(
        "Fans sing before a friendly match at the stadium in Abu Dhabi, United Arab Emirates, 17 November 2022.",
    );
    assert_eq!(got.map(|(n, _)| n).as_deref(), Some("Abu Dhabi"));
    // A month's abbreviation is no town.
    let got = scene("Girls study at a school in Beichuan, China, on Sept. 5, 2008.");
    assert_ne!(got.map(|(n, _)| n).as_deref(), Some("Suptay"));
}

#[test]
fn a_day_and_month_heading_the_caption_make_the_next_place_its_dateline() {
    let got = scene("21.03 Kyiv Un missile a frappé la maison de Milana, 6 ans. Photo: Jean Roux");
    assert_eq!(got.map(|(_, cc)| cc).as_deref(), Some("UA"));
}
