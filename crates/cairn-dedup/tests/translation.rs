//! Translations of one photograph are linked, on records the extractor gives for
//! captions written here in the shapes wires file them in; different photographs of
//! one event with one credit and one day are not.

use cairn_dedup::is_translation;
use cairn_extract::Extractor;
use cairn_model::Record;

fn records(texts: &[&str]) -> Vec<Record> {
    let x = Extractor::bundled();
    texts.iter().map(|t| x.extract(t)).collect()
}

const EN: &str = "Civil defence volunteers carry a wounded man after an air strike on the Bab al-Nairab district of Aleppo, Syria, on November 24, 2016. At least 12 people were killed, according to a monitor. (Photo by Karim Nasser / AFP)";
const FR: &str = "Des secouristes de la défense civile transportent un blessé après une frappe aérienne sur le quartier de Bab al-Nairab à Alep, en Syrie, le 24 novembre 2016. Au moins 12 personnes ont été tuées, selon une ONG. AFP PHOTO / KARIM NASSER";
const ES: &str = "Voluntarios de la defensa civil trasladan a un herido tras un bombardeo aéreo en el barrio de Bab al-Nairab en Alepo, Siria, el 24 de noviembre de 2016. Al menos 12 personas murieron, según una ONG. AFP PHOTO / KARIM NASSER";

#[test]
fn a_caption_and_its_translations_are_linked() {
    let r = records(&[EN, FR, ES]);
    for (i, a) in r.iter().enumerate() {
        for (j, b) in r.iter().enumerate() {
            assert_eq!(
                is_translation(a, b),
                i != j,
                "{i} {j}: {:?} {:?}\n{a:#?}\n{b:#?}",
                a.lang,
                b.lang
            );
        }
    }
}

#[test]
fn other_photographs_of_the_event_are_not_linked() {
    // Same credit, day and place; another toll.
    let other_toll = "Des secouristes de la défense civile transportent un blessé après une frappe aérienne sur le quartier de Bab al-Nairab à Alep, en Syrie, le 24 novembre 2016. Au moins 15 personnes ont été tuées, selon une ONG. AFP PHOTO / KARIM NASSER";
    // Same credit, day and place; another person named.
    let other_name = "Le jeune Ahmad Darwish est soigné après une frappe aérienne sur le quartier de Bab al-Nairab à Alep, en Syrie, le 24 novembre 2016. Au moins 12 personnes ont été tuées, selon une ONG. AFP PHOTO / KARIM NASSER";
    // Same credit, day and place; nothing reported beyond them.
    let bare_en = "A woman walks past a damaged building in Aleppo, Syria, on November 24, 2016. (Photo by Karim Nasser / AFP)";
    let bare_fr = "Un homme marche dans une rue d'Alep, en Syrie, le 24 novembre 2016. AFP PHOTO / KARIM NASSER";
    // The translation, but another day.
    let other_day = FR.replace("24 novembre", "25 novembre");
    // The translation, but another photographer.
    let other_photographer = FR.replace("KARIM NASSER", "LINA SALEH");
    let r = records(&[
        EN,
        other_toll,
        other_name,
        bare_en,
        bare_fr,
        &other_day,
        &other_photographer,
    ]);
    for (k, b) in r.iter().enumerate().skip(1) {
        if k == 4 {
            continue;
        }
        assert!(!is_translation(&r[0], b), "caption {k}: {:#?}", b);
    }
    assert!(
        !is_translation(&r[3], &r[4]),
        "two bare pictures of one day"
    );
    // One language is never a translation of itself.
    assert!(!is_translation(&r[1], &r[2]));
}
