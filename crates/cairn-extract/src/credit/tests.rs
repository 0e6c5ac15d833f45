//! Credits in the shapes news desks write them, in our own sentences.

use super::*;

pub(super) fn check(
    text: &str,
    photographers: &[&str],
    agency: Option<&str>,
    distributor: Option<&str>,
) {
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

pub(super) fn flags(text: &str) -> Vec<CreditFlag> {
    find(text).map(|f| f.credit.flags).unwrap_or_default()
}

#[test]
fn credits_before_the_caption() {
    check(
        "AP Photo/Jane Roe A boy carries water through a flooded street in Sylhet.",
        &["Jane Roe"],
        Some("AP"),
        None,
    );
    check(
        "(Foto: Lena Brandt/AFP) Rettungskräfte suchen in den Trümmern nach Überlebenden.",
        &["Lena Brandt"],
        Some("AFP"),
        None,
    );
    check(
        "Omar Haddad/Al Jazeera Fishermen mend their nets at dawn in Tyre.",
        &["Omar Haddad"],
        Some("Al Jazeera"),
        None,
    );
    check(
        "Rami Aziz, EPA-EFE Families queue for bread outside a bakery in Idlib on Friday.",
        &["Rami Aziz"],
        Some("EPA"),
        None,
    );
    check(
        "UNHCR/B Salim Women carry firewood back to the camp near Marib.",
        &["B Salim"],
        Some("UNHCR"),
        None,
    );
    check(
        "Lena Ortiz, Pool/EPA-EFE The two leaders shake hands at the summit in Vienna.",
        &["Lena Ortiz"],
        Some("Pool"),
        Some("EPA"),
    );
}

#[test]
fn a_credit_before_the_caption_stops_at_the_caption() {
    check(
        "UNHCR/B Salim For Amal, life changed when the shelling began.",
        &["B Salim"],
        Some("UNHCR"),
        None,
    );
    check(
        "Lena Ortiz, Pool/EPA-EFE Prime Minister Ana Ruiz (L) greets the envoy in Kyiv.",
        &["Lena Ortiz"],
        Some("Pool"),
        Some("EPA"),
    );
    check(
        "Ismael Abu Dayyah/AFP Palestinians inspect a house in Rafah.",
        &["Ismael Abu Dayyah"],
        Some("AFP"),
        None,
    );
}

#[test]
fn credits_after_the_caption() {
    check(
        "Smoke rises over the port after the strike on Sunday. EPA-EFE/JOHN ROE",
        &["JOHN ROE"],
        Some("EPA"),
        None,
    );
    check(
        "Rescuers search the rubble in Hodeidah, Yemen, on Nov. 3, 2019. (Xinhua/Jane Roe)",
        &["Jane Roe"],
        Some("Xinhua"),
        None,
    );
    check(
        "Children play in the snow in a camp near Azaz BILAL DEMIR/AFP/GETTY IMAGES",
        &["BILAL DEMIR"],
        Some("AFP"),
        Some("Getty Images"),
    );
    check(
        "Les secours fouillent les décombres à Alep.Karim Nasser (AP)",
        &["Karim Nasser"],
        Some("AP"),
        None,
    );
    check(
        "Un hombre camina entre los escombros en Rafah.SAMIR HADI (EFE)",
        &["SAMIR HADI"],
        Some("EFE"),
        None,
    );
    check(
        "A nurse tends a child at a clinic in Aden. Jana Kell / Reuters",
        &["Jana Kell"],
        Some("Reuters"),
        None,
    );
    check(
        "A nurse tends a child at a clinic in Aden. Photo by Jana Kell / Reuters",
        &["Jana Kell"],
        Some("Reuters"),
        None,
    );
    check(
        "A nurse tends a child at a clinic in Aden. Jana Kell\\Reuters",
        &["Jana Kell"],
        Some("Reuters"),
        None,
    );
    check(
        "Farmers harvest wheat near Kherson on July 2, 2023. Ivan Petrenko | Reuters",
        &["Ivan Petrenko"],
        Some("Reuters"),
        None,
    );
    check(
        "A girl waits at a water point in Darfur.REUTERS/Ann Berg/Oxfam",
        &["Ann Berg"],
        Some("Reuters"),
        Some("Oxfam"),
    );
    check(
        "Firefighters work through the night in Lviv. Tom Wren for The New York Times",
        &["Tom Wren"],
        Some("The New York Times"),
        None,
    );
    check(
        "Des habitants fuient la ville. Marc Jolin Agence France-Presse",
        &["Marc Jolin"],
        Some("AFP"),
        None,
    );
    check(
        "Eine Frau steht vor ihrem Haus. Foto: Paul Sand/AP/dpa",
        &["Paul Sand"],
        Some("AP"),
        Some("dpa"),
    );
    check(
        "Ein Bus brennt in Charkiw. Bild: dpa / Sergej Orlow",
        &["Sergej Orlow"],
        Some("dpa"),
        None,
    );
    check(
        "Menschen warten auf den Zug. Bild: AA / PAVEL ZORIN",
        &["PAVEL ZORIN"],
        Some("Anadolu Agency"),
        None,
    );
    check(
        "Rauch steigt über der Stadt auf. PAVEL ZORIN / AFP / picturedesk.com",
        &["PAVEL ZORIN"],
        Some("AFP"),
        Some("picturedesk.com"),
    );
    check(
        "Une femme devant sa maison détruite à Kharkiv. AFP PHOTO / SERGEI VOLKOV",
        &["SERGEI VOLKOV"],
        Some("AFP"),
        None,
    );
    check(
        "Des enfants dans une école à Gaza (Photo Sami Rafi / AFP)",
        &["Sami Rafi"],
        Some("AFP"),
        None,
    );
    check(
        "Des enfants dans une école à Gaza. Photo : SAMI RAFI / AFP",
        &["SAMI RAFI"],
        Some("AFP"),
        None,
    );
    check(
        "Niños juegan junto a un tanque en Jan Yunis. EFE/Omar Saleh",
        &["Omar Saleh"],
        Some("EFE"),
        None,
    );
    check(
        "Niños juegan junto a un tanque en Jan Yunis. Foto: EFE - OMAR SALEH",
        &["OMAR SALEH"],
        Some("EFE"),
        None,
    );
    check(
        "Niños juegan en Jan Yunis (Foto de OMAR SALEH / AFP)",
        &["OMAR SALEH"],
        Some("AFP"),
        None,
    );
    check(
        "Niños juegan en Jan Yunis. (AP Foto/Omar Saleh) Copyright 2024 The Associated Press. All rights reserved.",
        &["Omar Saleh"],
        Some("AP"),
        None,
    );
}

#[test]
fn one_credit_from_several_lines() {
    check(
        "Herders walk their goats near Baidoa.AFP PHOTO/JOHN ROE (Photo credit should read JOHN ROE/AFP/Getty Images)",
        &["JOHN ROE"],
        Some("AFP"),
        Some("Getty Images"),
    );
    check(
        "A woman waits at the border. (Photo by Rita Vale / AFP) (Photo by RITA VALE/AFP via Getty Images)",
        &["Rita Vale"],
        Some("AFP"),
        Some("Getty Images"),
    );
}

#[test]
fn credits_naming_no_person() {
    check(
        "Tents stand in the mud outside Khartoum. [AFP]",
        &[],
        Some("AFP"),
        None,
    );
    check("Tents stand in the mud. PHOTO: AFP", &[], Some("AFP"), None);
    check(
        "Tents stand in the mud. Image Credit: AFP",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "Tents stand in the mud. © 2019 Reuters",
        &[],
        Some("Reuters"),
        None,
    );
    check(
        "Tents stand in the mud. — Reuters",
        &[],
        Some("Reuters"),
        None,
    );
    check(
        "Tents stand in the mud. (Photo | AP)",
        &[],
        Some("AP"),
        None,
    );
    check(
        "Tents stand in the mud. SOURCE: Reuters",
        &[],
        Some("Reuters"),
        None,
    );
    check(
        "Tents stand in the mud on March 3, 2021 AFP",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "Troops unload aid at the airport. (Border Police Department via AP)",
        &[],
        Some("Border Police Department"),
        Some("AP"),
    );
    check(
        "A view of the harbour after the blast. (AFP Photo/Satellite image ©2020 Maxar Technologies)",
        &[],
        Some("Maxar Technologies"),
        Some("AFP"),
    );
}

#[test]
fn arabic_credits() {
    check(
        "نازحون في خيام غرب مدينة غزة (أ ف ب)",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "نازحون في خيام غرب مدينة غزة (أ.ف.ب)",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "نازحون في خيام غرب مدينة غزة (رويترز)",
        &[],
        Some("Reuters"),
        None,
    );
    check(
        "نازحون في خيام غرب مدينة غزة (الفرنسية)",
        &[],
        Some("AFP"),
        None,
    );
    check(
        "نازحون في خيام غرب مدينة غزة (الأناضول)",
        &[],
        Some("Anadolu Agency"),
        None,
    );
    check(
        "أطفال يلعبون قرب المخيم. تصوير: سامر علي",
        &["سامر علي"],
        None,
        None,
    );
    check(
        "أطفال يلعبون قرب المخيم. رويترز / سامر علي",
        &["سامر علي"],
        Some("Reuters"),
        None,
    );
    check(
        "أطفال يلعبون قرب المخيم (تصوير سامر علي / أ ف ب)",
        &["سامر علي"],
        Some("AFP"),
        None,
    );
    // The writer named before the photo credit is no photographer.
    check(
        "أطفال يلعبون قرب المخيم. محمد كامل - تصوير: سامر علي",
        &["سامر علي"],
        None,
        None,
    );
}

#[test]
fn roles_become_flags() {
    check(
        "Boys swim in the river. (AP Photo/Jane Roe, File)",
        &["Jane Roe"],
        Some("AP"),
        None,
    );
    assert_eq!(
        flags("Boys swim in the river. (AP Photo/Jane Roe, File)"),
        vec![CreditFlag::File]
    );
    assert_eq!(
        flags("Boys swim in the river. REUTERS/Stringer"),
        vec![CreditFlag::Stringer]
    );
    assert_eq!(
        flags("Boys swim in the river. STR/AFP"),
        vec![CreditFlag::Stringer]
    );
    check(
        "Rescuers carry a man from the rubble. Lea Marsh/UNICEF/Handout via REUTERS",
        &["Lea Marsh"],
        Some("UNICEF"),
        Some("Reuters"),
    );
    assert_eq!(
        flags("Rescuers carry a man from the rubble. Lea Marsh/UNICEF/Handout via REUTERS"),
        vec![CreditFlag::Handout]
    );
    check(
        "The minister arrives for talks. Jo Fern/Pool via REUTERS",
        &["Jo Fern"],
        Some("Pool"),
        Some("Reuters"),
    );
    assert_eq!(
        flags("The minister arrives for talks. Jo Fern/Pool via REUTERS"),
        vec![CreditFlag::Pool]
    );
    check(
        "The minister arrives for talks. REUTERS/Jo Fern/Pool",
        &["Jo Fern"],
        Some("Reuters"),
        Some("Pool"),
    );
    check(
        "Fire crews fight the blaze. Nikos Pappas/EPA/EFE",
        &["Nikos Pappas"],
        Some("EPA"),
        None,
    );
    check(
        "Fire crews fight the blaze. EFE/EPA/PAPPAS NIKOS",
        &["PAPPAS NIKOS"],
        Some("EPA"),
        None,
    );
    check(
        "Shoppers crowd the market. Kim Soo/NurPhoto/Shutterstock",
        &["Kim Soo"],
        Some("NurPhoto"),
        Some("Shutterstock"),
    );
    check(
        "Shoppers crowd the market. Kim Soo/REX/Shutterstock",
        &["Kim Soo"],
        Some("Shutterstock"),
        None,
    );
}

#[test]
fn distribution_chains() {
    check(
        "Crowds gather in Lviv. Ana Roe/SOPA Images/LightRocket via Getty Images",
        &["Ana Roe"],
        Some("SOPA Images"),
        Some("Getty Images"),
    );
    check(
        "Kim visits a farm. KCNA via REUTERS",
        &[],
        Some("KCNA"),
        Some("Reuters"),
    );
    check(
        "Talks open in Sochi. Sputnik/Ana Roe/Kremlin via REUTERS",
        &["Ana Roe"],
        Some("Sputnik"),
        Some("Reuters"),
    );
    check(
        "Protesters march in Lyon. ANA ROE / POOL / AFP",
        &["ANA ROE"],
        Some("Pool"),
        Some("AFP"),
    );
    check(
        "A crater near the airfield. Satellite image ©2024 Maxar Technologies/Handout via REUTERS",
        &[],
        Some("Maxar Technologies"),
        Some("Reuters"),
    );
    check(
        "Fans cheer in Leeds on Monday. Photograph: Ana Roe for the Guardian",
        &["Ana Roe"],
        Some("The Guardian"),
        None,
    );
    check(
        "Ein Zug fährt durch Kiew. Foto: Ana Roe/dpa/picture alliance",
        &["Ana Roe"],
        Some("dpa"),
        Some("Picture Alliance"),
    );
    check(
        "متظاهرون في ساحة الشهداء - الأوروبية",
        &[],
        Some("EPA"),
        None,
    );
}

#[test]
fn story_words_are_not_credits() {
    assert!(find("The agency (SANA) said the convoy reached Homs on Monday.").is_none());
    assert!(find("A spokesman for the army told Reuters").is_none());
    assert!(find("Relatives mourn the victims of the 9/11 attacks in New York.").is_none());
    assert!(find("Traffic moves on the Kharkiv/Kharkov road.").is_none());
    assert!(find("Workers repair the line in Scranton, Pa.").is_none());
    assert!(find("Teknaf, Bangladesh, September 14, 2017").is_none());
    assert!(find("N/A").is_none());
    assert!(find("Shells fell on the town (12/02/2021), residents said.").is_none());
    assert!(find("Protesters march on Feb 1st.").is_none());
    assert!(
        find(
            "Fighters guard a checkpoint run by the U.S.-backed Kurdistan Region Security Council"
        )
        .is_none()
    );
    assert!(find("Iran-aligned Houthi Media Center (HMC) staff film a rally in Sanaa.").is_none());
}

#[test]
fn a_placeholder_is_never_a_photographer() {
    check("A man walks. (AP Photo/None)", &[], Some("AP"), None);
    let f = find("A boy waits by the road. Credit: Unknown").map(|f| f.credit);
    assert!(
        f.as_ref().is_none_or(|c| c.photographers.is_empty()),
        "{f:?}"
    );
    let f = find("A boy waits by the road. Credit: None").map(|f| f.credit);
    assert!(
        f.as_ref().is_none_or(|c| c.photographers.is_empty()),
        "{f:?}"
    );
}
