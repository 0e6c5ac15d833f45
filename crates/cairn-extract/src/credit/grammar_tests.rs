//! Credits one step from the familiar shapes, read by the credit's grammar rather than by
//! the table alone: bodies the table lacks in an organisation's slot, placeholders, lower
//! case, glued agencies, `for` outlets, credits standing where no separator bounds them.
//! Our own sentences, in the shapes found on pages cairn was not fitted to.

use super::tests::check;

#[test]
fn a_body_the_table_lacks_stands_in_the_organisations_slot() {
    check(
        "Nurses carry supplies into the ward. (Photo by Dana Quill/Northwind Radio)",
        &["Dana Quill"],
        Some("Northwind Radio"),
        None,
    );
    check(
        "Fishermen mend nets on the shore. (Sami Orel/Harbour77)",
        &["Sami Orel"],
        Some("Harbour77"),
        None,
    );
    check(
        "A vendor waits for customers at dawn. (Photo | Rina Tal, KPS)",
        &["Rina Tal"],
        Some("KPS"),
        None,
    );
    check(
        "Children queue for water. Photograph: Jo Brand/Concern Worldwide",
        &["Jo Brand"],
        Some("Concern Worldwide"),
        None,
    );
}

#[test]
fn placeholders_are_never_people() {
    check("A flooded road outside town. Credit: None", &[], None, None);
    check(
        "A flooded road outside town. (AP Photo/None)",
        &[],
        Some("AP"),
        None,
    );
    check(
        "A crowd gathers at the gate. Picture: Screenshot/DW",
        &[],
        Some("Deutsche Welle"),
        None,
    );
    check(
        "A crowd gathers at the gate. Photo: Unknown",
        &[],
        None,
        None,
    );
}

#[test]
fn one_word_credits_name_a_body() {
    check(
        "A drone strike hit a car on the coast road. ©Al-Nahar",
        &[],
        Some("Al-Nahar"),
        None,
    );
    check(
        "A road collapsed after the rain. Photo: Star",
        &[],
        Some("Star"),
        None,
    );
}

#[test]
fn lower_case_and_glued_credits() {
    check(
        "Children sit in a classroom of the camp on Jan. 4. mira olsen/Reuters",
        &["mira olsen"],
        Some("Reuters"),
        None,
    );
    check(
        "A man walks past the ruins. epa / Tomas Reyes",
        &["Tomas Reyes"],
        Some("EPA"),
        None,
    );
    check(
        "Soldiers patrol the border. REUTERS-Anna Berg",
        &["Anna Berg"],
        Some("Reuters"),
        None,
    );
    check(
        "An officer guards the scene. Photo credit: Jon deWitt",
        &["Jon deWitt"],
        None,
        None,
    );
}

#[test]
fn people_credited_for_an_outlet_in_five_languages() {
    check(
        "A boat carries people across the flooded plain. / Ana Ruiz for Coastline Weekly",
        &["Ana Ruiz"],
        Some("Coastline Weekly"),
        None,
    );
    check(
        "Une mère embrasse son fils à la gare. Photo: Paul Marin pour Reuters",
        &["Paul Marin"],
        Some("Reuters"),
        None,
    );
}

#[test]
fn ranks_and_desk_words_are_no_part_of_a_name() {
    check(
        "A soldier scans the valley from a truck. (U.S. Army photo by Spc. Kay Dorn/Released)",
        &["Kay Dorn"],
        Some("US Army"),
        None,
    );
}

#[test]
fn credits_no_separator_bounds() {
    check(
        "3 mars 2022 AFP Une femme attend le train avec ses enfants.",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "EFEUna niña juega en la plaza del pueblo.",
        &[],
        Some("EFE"),
        None,
    );
    check(
        "by Omar Tellis KABUL, AFGHANISTAN – MAY 3: Children collect water at a pump.",
        &["Omar Tellis"],
        None,
        None,
    );
    check(
        "Zerstörte Häuser in Homs Reuters/Lina Dorf Die Aufnahme zeigt eine leere Straße",
        &["Lina Dorf"],
        Some("Reuters"),
        None,
    );
    check(
        "Lara Penn/AP - PHOTO: Rescuers search the rubble of a school.",
        &["Lara Penn"],
        Some("AP"),
        None,
    );
    check(
        "Winter Days | Photo: AP/Nico Vale A man clears snow from his door.",
        &["Nico Vale"],
        Some("AP"),
        None,
    );
    check(
        "Credit, Rami Sayed Photo caption, The camp holds thousands of families",
        &["Rami Sayed"],
        None,
        None,
    );
}

#[test]
fn a_place_and_a_day_after_a_comma_are_no_credit() {
    let f = super::find(
        "Rebels fire during an assault near the border with Uganda, South Sudan, August 26.",
    );
    assert!(f.is_none(), "{:?}", f.map(|f| f.credit));
}

#[test]
fn a_misspelt_agency_in_its_slot_is_the_agency() {
    check(
        "Flood water covers the main road. (Tom Lark/Asociated Press)",
        &["Tom Lark"],
        Some("AP"),
        None,
    );
    assert_eq!(
        super::orgs::lookup_misspelt("Agence France-Pesse").map(|o| o.name),
        Some("AFP")
    );
    // Short names are too near each other for a slip to say which.
    assert!(super::orgs::lookup_misspelt("Reutres").is_none());
}

#[test]
fn a_caption_opening_without_capitals_reads_no_glued_agency() {
    // (A lower-case first word has no capitals to count back from.)
    assert!(super::find("abandoned cars line the road after the flood").is_none());
}
