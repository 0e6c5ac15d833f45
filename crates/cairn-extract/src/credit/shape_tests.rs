//! Credits in the shapes found auditing real captions (ragged pages, desk notes, house
//! styles of outlets and desks in other languages), in our own sentences.

use super::tests::{check, flags};
use cairn_model::CreditFlag;

#[test]
fn credits_the_page_left_ragged() {
    // A bracket left open at the end, or closed with its opening lost.
    check(
        "A nurse sits with her patient at dawn. (Lena Hart - March 2, 2011",
        &["Lena Hart"],
        None,
        None,
    );
    check(
        "Cadets march across the yard. Tom R. Bell, Denver Post - 2010)",
        &["Tom R. Bell"],
        Some("The Denver Post"),
        None,
    );
    // A day glued to its year, initials in a name.
    check(
        "A boy waits by the door. (Ann Kell, The New York Times - May 15,2013)",
        &["Ann Kell"],
        Some("The New York Times"),
        None,
    );
    check(
        "Marchers face police. (R.J. Vance, St. Louis Post-Dispatch - June 3, 2015)",
        &["R.J. Vance"],
        Some("St. Louis Post-Dispatch"),
        None,
    );
    // A wire's subject tags after its credit.
    check(
        "Girls train at a gym in Herat. REUTERS/Omar Sadiq (AFGHANISTAN - Tags: SPORT) Omar Sadiq / X1234",
        &["Omar Sadiq"],
        Some("Reuters"),
        None,
    );
    // Sentences and their credit in one bracket.
    check(
        "(Cover: Two envoys shake hands outside the hall in Vilnius, May 4, 2021. /Reuters)",
        &[],
        Some("Reuters"),
        None,
    );
}

#[test]
fn credit_words_of_the_trade() {
    check(
        "A gunman fires on a car. (AP stringer, December 19, 2004)",
        &[],
        Some("AP"),
        None,
    );
    assert_eq!(
        flags("A gunman fires on a car. (AP stringer, December 19, 2004)"),
        vec![CreditFlag::Stringer]
    );
    check(
        "Rescuers reach the blast site. (June 2. 1998, Paul Orr distributed by Associated Press)",
        &["Paul Orr"],
        None,
        Some("AP"),
    );
    // A one-word body beside a full name is a body, even one the table lacks.
    check(
        "Children play in the camp. Photo credit: © Sami Odeh/Lensworks / Alamy / Pixagency",
        &["Sami Odeh"],
        Some("Lensworks"),
        Some("Alamy"),
    );
    // An outlet after a date, with no separator.
    check(
        "Voters queue at a polling unit in Kano on March 18, 2023 Premium Times",
        &[],
        Some("Premium Times"),
        None,
    );
    check(
        "Ein Mann sitzt vor seinem Laden. Foto: Ana Roe/Página/12",
        &["Ana Roe"],
        Some("Página/12"),
        None,
    );
}

#[test]
fn credits_over_two_sentences_or_before_a_dateline() {
    check(
        "Doctors gather outside the ward. Photo by Rami Saad/Middle East Images/ABACAPRESS.COM. Source: ABACA / Middle East Images/ABACA/Alamy",
        &["Rami Saad"],
        Some("Middle East Images"),
        Some("ABACA"),
    );
    check(
        "KEMAL ORHAN/AFP/Getty Images Mosul, IRAQ: A man carries a child through the market, 3 June 2008.",
        &["KEMAL ORHAN"],
        Some("AFP"),
        Some("Getty Images"),
    );
    check(
        "Bild: AFP Zerstörung und Angst: Eine Frau flieht aus ihrem Haus in Irpin.",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "Sean Kerr/PA Images via Getty Images Racegoers arrive at the course in Galway.",
        &["Sean Kerr"],
        Some("PA Images"),
        Some("Getty Images"),
    );
}

#[test]
fn suffixes_keep_their_stop() {
    check(
        "Smoke drifts over the ridge. (Paul Hale Jr., Rocky Mountain News - June 10, 2002)",
        &["Paul Hale Jr."],
        Some("Rocky Mountain News"),
        None,
    );
    check(
        "Smoke drifts over the ridge. (Photo by Paul Hale II.)",
        &["Paul Hale II"],
        None,
        None,
    );
}

#[test]
fn picture_numbers_are_no_names() {
    check(
        "A girl carries water past the tents in Rafah. © UNICEF/UN0123456/Haddad",
        &["Haddad"],
        Some("UNICEF"),
        None,
    );
    check(
        "A girl carries water past the tents in Rafah. UNHCR/UN0654321/Jo Baker",
        &["Jo Baker"],
        Some("UNHCR"),
        None,
    );
}

#[test]
fn courtesy_credits_are_handouts() {
    check(
        "Volunteers load a truck in Dnipro. Photo courtesy of Ivan Lis",
        &["Ivan Lis"],
        None,
        None,
    );
    assert_eq!(
        flags("Volunteers load a truck in Dnipro. Photo courtesy of Ivan Lis"),
        vec![CreditFlag::Handout]
    );
    check(
        "Volunteers load a truck in Dnipro. Courtesy: State Emergency Service",
        &[],
        Some("State Emergency Service"),
        None,
    );
    check(
        "Soldiers search a tunnel. (Courtesy of the Israel Defense Forces via AP)",
        &[],
        Some("Israel Defense Forces"),
        Some("AP"),
    );
}

#[test]
fn continental_markers() {
    check(
        "Des familles attendent au poste-frontière. (Crédit : REUTERS/Lea Marin)",
        &["Lea Marin"],
        Some("Reuters"),
        None,
    );
    check(
        "Des familles attendent au poste-frontière. Crédit photo : AFP",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "Des familles attendent au poste-frontière. (Photo d'archives AFP)",
        &[],
        Some("AFP"),
        None,
    );
    assert_eq!(
        flags("Des familles attendent au poste-frontière. (Photo d'archives AFP)"),
        vec![CreditFlag::File]
    );
    check(
        "Familias esperan en la frontera. Fotografía: Lea Marin / EFE",
        &["Lea Marin"],
        Some("EFE"),
        None,
    );
    check(
        "Familien warten an der Grenze. (Quelle: Lea Marin/AP/dpa)",
        &["Lea Marin"],
        Some("AP"),
        Some("dpa"),
    );
    check(
        "Familien warten an der Grenze. Foto: picture alliance/dpa/AP | Lea Marin",
        &["Lea Marin"],
        Some("AP"),
        Some("dpa"),
    );
    check(
        "Familien warten an der Grenze. Foto: picture alliance/dpa | Lea Marin",
        &["Lea Marin"],
        Some("dpa"),
        Some("Picture Alliance"),
    );
    check(
        "عائلات تنتظر عند المعبر (الصورة: أ ف ب)",
        &[],
        Some("AFP"),
        None,
    );
    check("عائلات تنتظر عند المعبر (أ ب)", &[], Some("AP"), None);
    check("عائلات تنتظر عند المعبر (إي بي أيه)", &[], Some("EPA"), None);
}

#[test]
fn desk_notes_after_the_credit() {
    check(
        "Children queue for bread in Rafah. REUTERS/Omar Sadiq TPX IMAGES OF THE DAY",
        &["Omar Sadiq"],
        Some("Reuters"),
        None,
    );
    check(
        "Children queue for bread in Rafah. REUTERS/Omar Sadiq SEARCH \"GAZA BREAD\" FOR THIS STORY. SEARCH \"WIDER IMAGE\" FOR ALL STORIES.",
        &["Omar Sadiq"],
        Some("Reuters"),
        None,
    );
    check(
        "Crews clear a road in Sumy. Press service of the State Emergency Service of Ukraine/Handout via REUTERS ATTENTION EDITORS - THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY.",
        &[],
        Some("State Emergency Service of Ukraine"),
        Some("Reuters"),
    );
    check(
        "Crews clear a road in Sumy. Social media/via REUTERS THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY. MANDATORY CREDIT. NO RESALES. NO ARCHIVES.",
        &[],
        Some("Social Media"),
        Some("Reuters"),
    );
    check(
        "Crews clear a road in Sumy, 3 May 2023. EPA-EFE/OLENA KOVAL BEST QUALITY AVAILABLE",
        &["OLENA KOVAL"],
        Some("EPA"),
        None,
    );
    check(
        "epaselect epa10554321 Crews clear a road in Sumy, 3 May 2023. EPA-EFE/OLENA KOVAL",
        &["OLENA KOVAL"],
        Some("EPA"),
        None,
    );
    check(
        "Crews clear a road in Sumy, 3 May 2023. EPA-EFE/OLENA KOVAL epa10554321",
        &["OLENA KOVAL"],
        Some("EPA"),
        None,
    );
}

#[test]
fn outlets_house_styles() {
    check(
        "Image source, Getty Images Image caption, Crowds gather outside the court in Dhaka.",
        &[],
        Some("Getty Images"),
        None,
    );
    check(
        "Crowds gather outside the court in Dhaka [File: Rina Das/Reuters]",
        &["Rina Das"],
        Some("Reuters"),
        None,
    );
    assert_eq!(
        flags("Crowds gather outside the court in Dhaka [File: Rina Das/Reuters]"),
        vec![CreditFlag::File]
    );
    check(
        "Crowds gather outside the court in Pune. (Express Photo by Rina Das)",
        &["Rina Das"],
        Some("Indian Express"),
        None,
    );
    check(
        "Crews clear a road in Sumy. (Ukrainian Police Department Press Service via AP)",
        &[],
        Some("Ukrainian Police Department Press Service"),
        Some("AP"),
    );
    check(
        "Crews clear a road in Sumy. (Photo: Ukraine's State Emergency Service / Telegram)",
        &[],
        Some("State Emergency Service"),
        Some("Telegram"),
    );
}

#[test]
fn a_credit_set_off_by_a_dash_or_glued_to_the_caption() {
    // A dash before the credit, as South Asian dailies print it.
    check(
        "Rescuers clear the rubble of the market in Peshawar. — Photo by Saira Khan",
        &["Saira Khan"],
        None,
        None,
    );
    // A page that lost the space before `Photograph:`.
    check(
        "Fishermen haul their boat up the flooded bankPhotograph: Tom Reed for the Guardian",
        &["Tom Reed"],
        Some("The Guardian"),
        None,
    );
}
