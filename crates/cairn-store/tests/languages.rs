//! Search in the languages the wires write: each caption stemmed in its own language,
//! the language as a facet and a filter, places found by any of their names, and text
//! that is not the query language searched as plain words.

mod common;

use cairn_gazetteer::Gazetteer;
use cairn_model::{Place, Record, Span};
use cairn_store::{Archive, ArchiveWriter, Filters, NewSource, SearchRequest, SearchResults};
use proptest::prelude::*;

/// The gazetteer's record of a place, as extraction sets it on a caption.
fn located(name: &str, text: &str) -> Place {
    let g = Gazetteer::bundled();
    let id = g
        .best_match(name)
        .expect("a place of the bundled gazetteer");
    let path: Vec<String> = g.path(id).iter().map(|&p| g.entry(p).id.clone()).collect();
    let e = g.entry(id);
    Place {
        name: e.name.clone(),
        text: text.into(),
        lat: e.lat,
        lon: e.lon,
        kind: e.kind,
        admin1: None,
        country: Some(e.country.clone()),
        gazetteer_id: Some(e.id.clone()),
        span: Span::new(0, 0),
        within: path[..path.len() - 1].to_vec(),
        confidence: None,
        reason: None,
    }
}

/// A one-caption source with its record: the caption's language and place.
fn caption(n: u8, text: &str, lang: &str, place: Option<Place>) -> NewSource {
    common::one_caption(
        n,
        text,
        Record {
            text: text.into(),
            lang: Some(lang.into()),
            places: place.iter().cloned().collect(),
            location: place,
            ..Record::default()
        },
    )
}

/// Captions in five languages, in our own words; the place of each is set as
/// extraction would set it.
fn archive() -> (tempfile::TempDir, ArchiveWriter) {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    let aleppo = || Some(located("Aleppo", "Aleppo"));
    let sources = [
        caption(
            1,
            "Smoke rises after bombings over the old city of Halab.",
            "en",
            aleppo(),
        ),
        caption(
            2,
            "Des habitants fuient après un bombardement à Alep.",
            "fr",
            aleppo(),
        ),
        caption(
            3,
            "Un bombardeo destruyó un mercado en Alepo.",
            "es",
            aleppo(),
        ),
        caption(
            4,
            "Nach dem Angriff auf ein Krankenhaus in Aleppo.",
            "de",
            aleppo(),
        ),
        caption(
            5,
            "دخان يتصاعد بعد القصف على حي في مدينة حلب",
            "ar",
            aleppo(),
        ),
        caption(
            6,
            "Rescuers search the rubble in Douma.",
            "en",
            Some(located("Douma", "Douma")),
        ),
        caption(
            7,
            "Des familles évacuées de la Ghouta orientale.",
            "fr",
            None,
        ),
        caption(
            8,
            "A market street of Ma'arrat al-Numan after an air strike.",
            "en",
            None,
        ),
        caption(9, "(Kyiv) A man walks past a damaged building.", "en", None),
    ];
    a.write_batch(&sources).unwrap();
    (dir, a)
}

fn search(a: &Archive, q: &str, filters: Filters) -> SearchResults {
    a.search(&SearchRequest {
        query: q.into(),
        filters,
        limit: 50,
        facets: true,
        ..Default::default()
    })
    .unwrap_or_else(|e| panic!("{q:?}: {e}"))
}

/// The numbers of the captions a query finds (their sources' `test:N`).
fn found(a: &Archive, q: &str) -> Vec<u8> {
    let mut n: Vec<u8> = search(a, q, Filters::default())
        .hits
        .iter()
        .map(|h| h.sources[0].uri["test:".len()..].parse().unwrap())
        .collect();
    n.sort_unstable();
    n
}

#[test]
fn words_are_found_in_their_forms_in_each_language() {
    let (_d, a) = archive();
    // French, Spanish, German: the plural finds the singular, and back.
    assert_eq!(found(&a, "bombardements"), [2]);
    assert_eq!(found(&a, "bombardeos"), [3]);
    assert_eq!(found(&a, "Angriffe"), [4]);
    // English keeps its exact words and gains their forms.
    assert_eq!(found(&a, "bombings"), [1]);
    assert_eq!(found(&a, "bombing"), [1]);
    // Arabic: the article and prepositions come off, vowel signs do not matter.
    assert_eq!(found(&a, "قصف"), [5]);
    assert_eq!(found(&a, "بالقصف"), [5]);
    assert_eq!(found(&a, "مدينة"), [5]);
    assert_eq!(found(&a, "المدينه"), [5]);
    assert_eq!(found(&a, "القَصْف"), [5]);
    // Accents never matter, written or not.
    assert_eq!(found(&a, "evacuees"), [7]);
    assert_eq!(found(&a, "évacuées"), [7]);
    assert_eq!(found(&a, "EVACUEES"), [7]);
    // The query language is unchanged: phrases stay exact, prefixes and NOT work.
    assert_eq!(found(&a, "\"old city\""), [1]);
    assert!(found(&a, "\"old cities\"").is_empty());
    assert_eq!(found(&a, "bombard*"), [2, 3]);
    assert_eq!(found(&a, "rubble OR Krankenhaus"), [4, 6]);
    assert_eq!(found(&a, "smoke -Halab"), Vec::<u8>::new());
}

#[test]
fn language_is_a_facet_and_a_filter() {
    let (_d, a) = archive();
    let r = search(&a, "", Filters::default());
    let lang: Vec<(String, u64)> = r
        .facets
        .unwrap()
        .lang
        .into_iter()
        .map(|f| (f.value, f.count))
        .collect();
    let want = [("en", 4), ("fr", 2), ("ar", 1), ("de", 1), ("es", 1)];
    assert_eq!(lang, want.map(|(l, n)| (l.to_string(), n)));
    let only = |langs: &[&str]| Filters {
        lang: langs.iter().map(|l| l.to_string()).collect(),
        ..Filters::default()
    };
    assert_eq!(search(&a, "", only(&["fr"])).total, 2);
    assert_eq!(search(&a, "", only(&["FR", "de"])).total, 3);
    assert_eq!(search(&a, "", only(&["it"])).total, 0);
    assert_eq!(search(&a, "Aleppo", only(&["ar", "es"])).total, 2);
}

#[test]
fn places_are_found_by_any_of_their_names() {
    let (_d, a) = archive();
    let aleppo = [1, 2, 3, 4, 5];
    // Every caption located in Aleppo, whatever its own spelling (`Halab`, `Alep`,
    // `حلب`), by the gazetteer's names in any language and script.
    for name in ["Aleppo", "Alep", "Alepo", "حلب", "Halab", "aleppo"] {
        assert_eq!(found(&a, name), aleppo, "{name}");
    }
    for name in ["Douma", "Dūmā", "Duma", "DOUMA", "دوما"] {
        assert_eq!(found(&a, name), [6], "{name}");
    }
    // A place name beside other words still narrows.
    assert_eq!(found(&a, "Alepo mercado"), [3]);
    assert_eq!(found(&a, "rubble Dūmā"), [6]);
    // The country finds its captions too (they are all in Syria but Kyiv's and the
    // two without a place).
    assert_eq!(found(&a, "Syrie"), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn text_that_is_not_the_query_language_is_searched_as_plain_words() {
    let (_d, a) = archive();
    // An apostrophe inside a word opens no quote: such words are the query language.
    for q in ["Ma'arrat al-Numan", "Nu'man"] {
        let r = search(&a, q, Filters::default());
        assert_eq!(r.notice, None, "{q:?}");
        let got: Vec<u8> = r
            .hits
            .iter()
            .map(|h| h.sources[0].uri[5..].parse().unwrap())
            .collect();
        assert_eq!(got, [8], "{q:?}");
    }
    for (q, want) in [
        ("(Kyiv", vec![9]),
        ("\"old city", vec![1]),
        ("time: 10", vec![]),
        ("market AND", vec![8]),
        ("NOT market OR", vec![8]),
    ] {
        let r = search(&a, q, Filters::default());
        let notice = r.notice.clone().unwrap_or_default();
        assert!(
            notice.starts_with("Searched as plain words:"),
            "{q:?}: {notice:?}"
        );
        let mut got: Vec<u8> = r
            .hits
            .iter()
            .map(|h| h.sources[0].uri[5..].parse().unwrap())
            .collect();
        got.sort_unstable();
        assert_eq!(got, want, "{q:?}");
    }
    // Nothing to search: every caption, and a word about it.
    for q in ["-", "AND", "(", "\""] {
        let r = search(&a, q, Filters::default());
        assert!(r.notice.is_some(), "{q:?}");
    }
    // The query language itself gives no notice.
    for q in [
        "bombing",
        "\"old city\"",
        "alep*",
        "a OR b",
        "-smoke rubble",
        "text:rubble",
    ] {
        assert_eq!(search(&a, q, Filters::default()).notice, None, "{q:?}");
    }
    // A filter that is wrong is still an error: it is not text.
    let bad = Filters {
        from: Some("May 2016".into()),
        ..Filters::default()
    };
    assert!(
        a.search(&SearchRequest {
            query: "rubble".into(),
            filters: bad,
            limit: 5,
            ..Default::default()
        })
        .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever is typed in the search box, the search answers: results, or results
    /// with a notice; never an error.
    #[test]
    fn any_text_gives_results_or_a_notice(q in prop_oneof![
        "\\PC{0,40}",
        proptest::collection::vec(
            prop_oneof![
                Just("AND"), Just("OR"), Just("NOT"), Just("-"), Just("+"), Just("("),
                Just(")"), Just("\""), Just("'"), Just(":"), Just("*"), Just("~2"),
                Just("^3"), Just("text:"), Just("time:"), Just("lang:"), Just("[1 TO"),
                Just("]"), Just("{"), Just("}"), Just("/a.*/"), Just("Aleppo"),
                Just("حلب"), Just("bomb"), Just("IN"), Just("\\"), Just("*:*"),
                Just(" "), Just("date_start:>5"), Just("id:1"),
            ],
            0..12,
        ).prop_map(|v| v.concat()),
    ]) {
        let a = SHARED.with(|s| s.1.clone());
        let r = a.search(&SearchRequest { query: q.clone(), limit: 5, facets: true, ..Default::default() });
        prop_assert!(r.is_ok(), "{:?}: {:?}", q, r.err());
    }
}

thread_local! {
    /// One archive for all cases of the property (made once per test thread).
    static SHARED: (tempfile::TempDir, std::rc::Rc<ArchiveWriter>) = {
        let (d, a) = archive();
        (d, std::rc::Rc::new(a))
    };
}

/// The index schema of version 6 (before the language fields), as it was written.
fn schema_v6() -> tantivy::schema::Schema {
    use tantivy::schema::*;
    let text = |tokenizer: &str, option| {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(tokenizer)
                .set_index_option(option),
        )
    };
    let mut b = Schema::builder();
    b.add_u64_field("id", INDEXED | STORED | FAST);
    b.add_text_field(
        "text",
        text("cairn", IndexRecordOption::WithFreqsAndPositions),
    );
    b.add_text_field("pairs", text("cairn_pairs", IndexRecordOption::WithFreqs));
    for f in ["agency", "photographer", "country", "event"] {
        b.add_text_field(f, STRING);
    }
    for f in [
        "f_agency",
        "f_photographer",
        "f_country",
        "f_event",
        "f_year",
        "f_place",
    ] {
        b.add_facet_field(f, FacetOptions::default());
    }
    for f in ["date_start", "date_end", "killed"] {
        b.add_i64_field(f, INDEXED | FAST);
    }
    b.add_f64_field("lat", INDEXED | FAST);
    b.add_f64_field("lon", INDEXED | FAST);
    b.build()
}

/// An archive whose index an older version wrote opens: the writer rebuilds the index
/// in the new schema, and every caption is found in its language again.
#[test]
fn an_archive_indexed_by_the_old_schema_opens_and_is_rebuilt() {
    let (dir, a) = archive();
    drop(a);
    let index = dir.path().join("index");
    std::fs::remove_dir_all(&index).unwrap();
    std::fs::create_dir_all(&index).unwrap();
    let old = tantivy::Index::create_in_dir(&index, schema_v6()).unwrap();
    let mut w: tantivy::IndexWriter = old.writer_with_num_threads(1, 15_000_000).unwrap();
    let mut prepared = w.prepare_commit().unwrap();
    prepared.set_payload("v6:1");
    prepared.commit().unwrap();
    drop(w);
    // A reader cannot rebuild (readers never write), and says what will.
    let e = Archive::open_reader(dir.path()).unwrap_err().to_string();
    assert!(e.contains("reindex"), "{e}");
    let a = Archive::open_writer(dir.path()).unwrap();
    assert_eq!(found(&a, "bombardements"), [2]);
    assert_eq!(found(&a, "Alep"), [1, 2, 3, 4, 5]);
    drop(a);
    let r = Archive::open_reader(dir.path()).unwrap();
    assert_eq!(found(&r, "Angriffe"), [4]);
}

/// Captions of the later desks, in our own words.
fn later_desks() -> (tempfile::TempDir, ArchiveWriter) {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    let sources = [
        caption(
            1,
            "Жители разбирают завалы в Харькове после обстрела.",
            "ru",
            None,
        ),
        caption(
            2,
            "Рятувальники працюють у Харкові після обстрілу.",
            "uk",
            None,
        ),
        caption(
            3,
            "Soccorritori tra le macerie dopo i bombardamenti.",
            "it",
            None,
        ),
        caption(
            4,
            "Moradores observam os estragos após os bombardeios.",
            "pt",
            None,
        ),
        caption(
            5,
            "Antakya'da enkaz kaldırma çalışmaları sürüyor.",
            "tr",
            None,
        ),
    ];
    a.write_batch(&sources).unwrap();
    (dir, a)
}

#[test]
fn the_later_desks_find_words_in_their_cases() {
    let (_d, a) = later_desks();
    // A city in its cases is one word: the nominative finds the locative, and back.
    assert_eq!(found(&a, "Харьков"), [1]);
    assert_eq!(found(&a, "Харькова"), [1]);
    assert_eq!(found(&a, "Харків"), [2]);
    assert_eq!(found(&a, "Харкова"), [2]);
    assert_eq!(found(&a, "обстріл"), [2]);
    assert_eq!(found(&a, "bombardamento"), [3]);
    assert_eq!(found(&a, "bombardeio"), [4]);
    // A Turkish case suffix after the apostrophe, written or not.
    assert_eq!(found(&a, "Antakya"), [5]);
}

/// Captions of Gaza, Aleppo and Kharkiv in four scripts, in our own words, with their
/// places as extraction sets them; and captions of places near them.
fn four_scripts() -> (tempfile::TempDir, ArchiveWriter) {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    let at = |name: &str, text: &str| Some(located(name, text));
    let mut naming = caption(
        7,
        "Families who fled Gaza wait for flour in Khan Younis.",
        "en",
        at("Khan Yunis", "Khan Younis"),
    );
    let record = naming.occurrences[0].record.as_mut().unwrap();
    record.places.insert(0, located("Gaza", "Gaza"));
    let sources = [
        caption(
            1,
            "Smoke rises over Gaza after an air strike.",
            "en",
            at("Gaza", "Gaza"),
        ),
        caption(
            2,
            "دخان يتصاعد فوق غزة بعد غارة جوية",
            "ar",
            at("Gaza", "غزة"),
        ),
        caption(
            3,
            "Дым над Газой после авиаудара.",
            "ru",
            at("Gaza", "Газой"),
        ),
        caption(
            4,
            "Des enfants jouent dans une rue de Gaza.",
            "fr",
            at("Gaza", "Gaza"),
        ),
        caption(
            5,
            "Settlers and villagers clash near Ramallah.",
            "en",
            at("Ramallah", "Ramallah"),
        ),
        caption(
            6,
            "A market reopens in Manbij.",
            "en",
            at("Manbij", "Manbij"),
        ),
        naming,
        caption(
            8,
            "Rescuers search the rubble in Aleppo.",
            "en",
            at("Aleppo", "Aleppo"),
        ),
        caption(
            9,
            "Des secouristes fouillent les décombres à Alep.",
            "fr",
            at("Aleppo", "Alep"),
        ),
        caption(
            10,
            "رجال الإنقاذ يبحثون تحت الأنقاض في حلب",
            "ar",
            at("Aleppo", "حلب"),
        ),
        caption(
            11,
            "Спасатели разбирают завалы в Алеппо.",
            "ru",
            at("Aleppo", "Алеппо"),
        ),
        caption(
            12,
            "A tram passes a damaged building in Kharkiv.",
            "en",
            at("Kharkiv", "Kharkiv"),
        ),
        caption(
            13,
            "Трамвай проезжает мимо дома в Харькове.",
            "ru",
            at("Kharkiv", "Харькове"),
        ),
        caption(
            14,
            "Трамвай проїжджає повз будинок у Харкові.",
            "uk",
            at("Kharkiv", "Харкові"),
        ),
        caption(
            15,
            "A bus station in Kharkov after shelling.",
            "en",
            at("Kharkiv", "Kharkov"),
        ),
        caption(
            16,
            "A chemical plant on the Oder river.",
            "en",
            at("Police", "Police"),
        ),
        caption(
            17,
            "Heavy snow falls on a road in the Kyiv region.",
            "en",
            at("UA.13", "Kyiv region"),
        ),
    ];
    a.write_batch(&sources).unwrap();
    (dir, a)
}

/// The captions a place filter selects, by the name given.
fn in_place(a: &Archive, name: &str) -> Vec<u8> {
    let g = Gazetteer::bundled();
    let filters = Filters {
        place: cairn_gazetteer::place_paths(&g, &[name.to_string()]).unwrap(),
        ..Filters::default()
    };
    let mut n: Vec<u8> = search(a, "", filters)
        .hits
        .iter()
        .map(|h| h.sources[0].uri["test:".len()..].parse().unwrap())
        .collect();
    n.sort_unstable();
    n
}

#[test]
fn a_place_is_one_place_by_any_name_in_any_script() {
    let (_d, a) = four_scripts();
    // The city, not the territory (Ramallah) nor the province (Manbij); as a query, the
    // caption naming it elsewhere too.
    let cases: [(&[&str], &[u8], &[u8]); 3] = [
        (
            &["Gaza", "gaza", "غزة", "Газа"],
            &[1, 2, 3, 4],
            &[1, 2, 3, 4, 7],
        ),
        (
            &["Aleppo", "Alep", "حلب", "Алеппо"],
            &[8, 9, 10, 11],
            &[8, 9, 10, 11],
        ),
        (
            &["Kharkiv", "Kharkov", "Харків", "Харьков"],
            &[12, 13, 14, 15],
            &[12, 13, 14, 15],
        ),
    ];
    for (names, filtered, queried) in cases {
        for name in names {
            assert_eq!(in_place(&a, name), filtered, "place={name}");
            assert_eq!(found(&a, name), queried, "q={name}");
        }
    }
    // A caption naming a part of the city (its region), by the city's name in the
    // text, whichever spelling the query gives.
    for name in ["Kyiv", "Kiev", "Київ", "Киев"] {
        assert_eq!(found(&a, name), [17], "q={name}");
    }
    // The province only when asked for.
    assert_eq!(in_place(&a, "SY.09"), [6, 8, 9, 10, 11]);
    // A common word in lower case is a word, not the town of its name (Police,
    // Poland); written as a name, it is the town.
    assert_eq!(found(&a, "police"), Vec::<u8>::new());
    assert_eq!(found(&a, "Police"), [16]);
}

#[test]
fn english_finds_a_plural_not_made_with_s_by_its_singular() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    let sources = [
        caption(
            1,
            "Children queue for water at a camp near Idlib.",
            "en",
            None,
        ),
        caption(2, "A child sleeps in a tent after the floods.", "en", None),
        caption(
            3,
            "Masked gunmen patrol a checkpoint outside Sanaa, Yemen.",
            "en",
            None,
        ),
        caption(4, "A gunman was arrested, police said.", "en", None),
        caption(
            5,
            "Des enfants attendent de l'eau dans un camp.",
            "fr",
            None,
        ),
    ];
    a.write_batch(&sources).unwrap();
    assert_eq!(found(&a, "child"), [1, 2]);
    assert_eq!(found(&a, "children"), [1, 2]);
    assert_eq!(found(&a, "gunman"), [3, 4]);
    assert_eq!(found(&a, "gunmen"), [3, 4]);
    // Only the listed plurals: a word ending like one is itself.
    assert_eq!(found(&a, "Yemen"), [3]);
    assert_eq!(found(&a, "yeman"), Vec::<u8>::new());
    // Other languages keep their own stemming.
    assert_eq!(found(&a, "enfant"), [5]);
}

/// A place's name found inside another place's name (`Gaza Strip`, `قطاع غزة`), and a
/// name written where no place was read (`Kiev` in a sentence about the city's army):
/// every spelling of the place, in Latin, Arabic or Cyrillic letters, finds them all,
/// since the archive's other captions spell the place each way.
#[test]
fn each_name_of_a_place_finds_one_set_in_any_script() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Archive::open_writer(dir.path()).unwrap();
    let at = |name: &str, text: &str| Some(located(name, text));
    let sources = [
        caption(
            1,
            "Smoke rises over Gaza after an air strike.",
            "en",
            at("Gaza", "Gaza"),
        ),
        caption(
            2,
            "دخان يتصاعد فوق غزة بعد غارة جوية",
            "ar",
            at("Gaza", "غزة"),
        ),
        caption(
            3,
            "Дым над Газой после авиаудара.",
            "ru",
            at("Gaza", "Газой"),
        ),
        caption(
            4,
            "Rain floods the tents of displaced families in the Gaza Strip.",
            "en",
            at("Gaza Strip", "Gaza Strip"),
        ),
        caption(
            5,
            "أمطار غزيرة تغرق خيام العائلات النازحة في قطاع غزة",
            "ar",
            at("Gaza Strip", "قطاع غزة"),
        ),
        caption(
            6,
            "A tram passes a shelled building in Kyiv.",
            "en",
            at("Kyiv", "Kyiv"),
        ),
        caption(
            7,
            "Des habitants de Kiev dans une station de métro.",
            "fr",
            at("Kyiv", "Kiev"),
        ),
        caption(
            8,
            "Рятувальники біля будинку в Києві.",
            "uk",
            at("Kyiv", "Києві"),
        ),
        caption(9, "L'esercito di Kiev ha risposto con i droni.", "it", None),
        caption(
            10,
            "A bakery reopens in the Firdous district.",
            "en",
            at("Aleppo", "Firdous"),
        ),
        caption(11, "Children play in a park of Firdous.", "en", None),
    ];
    a.write_batch(&sources).unwrap();
    for (names, want) in [
        (["Gaza", "gaza", "غزة", "Газа"], vec![1, 2, 3, 4, 5]),
        (["Kyiv", "Kiev", "Київ", "Киев"], vec![6, 7, 8, 9]),
    ] {
        for name in names {
            assert_eq!(found(&a, name), want, "q={name}");
        }
    }
    // The words of a site placed at a city are no name of it.
    assert_eq!(found(&a, "Aleppo"), [10]);
}
