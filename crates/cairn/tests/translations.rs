//! Translations of one photograph through the real binary: stored as captions of their
//! own (never merged), and each caption lists the others as its translations.

mod common;

use common::{cairn, json, stats};

const EN: &str = "Civil defence volunteers carry a wounded man after an air strike on the Bab al-Nairab district of Aleppo, Syria, on November 24, 2016. At least 12 people were killed, according to a monitor. (Photo by Karim Nasser / AFP)";
const FR: &str = "Des secouristes de la défense civile transportent un blessé après une frappe aérienne sur le quartier de Bab al-Nairab à Alep, en Syrie, le 24 novembre 2016. Au moins 12 personnes ont été tuées, selon une ONG. AFP PHOTO / KARIM NASSER";
const ES: &str = "Voluntarios de la defensa civil trasladan a un herido tras un bombardeo aéreo en el barrio de Bab al-Nairab en Alepo, Siria, el 24 de noviembre de 2016. Al menos 12 personas murieron, según una ONG. AFP PHOTO / KARIM NASSER";
/// Another picture of that day: same credit and place, another toll.
const OTHER: &str = "Des habitants fouillent les décombres après une frappe aérienne sur le quartier de Bab al-Nairab à Alep, en Syrie, le 24 novembre 2016. Au moins 15 personnes ont été tuées, selon une ONG. AFP PHOTO / KARIM NASSER";

#[test]
fn a_caption_lists_its_translations_and_not_another_picture() {
    let d = tempfile::tempdir().unwrap();
    let page = d.path().join("page.txt");
    std::fs::write(&page, [EN, FR, ES, OTHER].join("\n\n")).unwrap();
    let data = d.path().join("archive");
    cairn(&data).arg("ingest").arg(&page).assert().success();
    assert_eq!(stats(&data)["captions"], 4, "translations are never merged");
    let hits = json(cairn(&data).args(["search", "", "--json", "--limit", "10"]));
    let id_of = |start: &str| {
        hits["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["text"].as_str().unwrap().starts_with(start))
            .unwrap()["id"]
            .as_i64()
            .unwrap()
    };
    let langs = |id: i64| {
        let c = json(cairn(&data).args(["show", &id.to_string(), "--json"]));
        let mut l: Vec<String> = c["translations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["lang"].as_str().unwrap().to_string())
            .collect();
        l.sort();
        l
    };
    assert_eq!(langs(id_of("Civil defence")), ["es", "fr"]);
    assert_eq!(langs(id_of("Voluntarios")), ["en", "fr"]);
    assert!(langs(id_of("Des habitants")).is_empty(), "another picture");
}
