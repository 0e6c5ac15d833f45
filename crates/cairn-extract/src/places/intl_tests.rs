//! Caption-shaped fixtures for the place grammar of French, Spanish, German and Arabic
//! captions, one or more per rule (our own sentences).

use cairn_model::Confidence;

use crate::Extractor;

fn extractor() -> &'static Extractor {
    static EX: std::sync::LazyLock<Extractor> = std::sync::LazyLock::new(Extractor::bundled);
    &EX
}

/// The location's gazetteer name, country and confidence, or `None`.
fn scene(caption: &str) -> Option<(String, String, Confidence)> {
    extractor().extract(caption).location.map(|p| {
        (
            p.name,
            p.country.unwrap_or_default(),
            p.confidence.expect("a location has a confidence"),
        )
    })
}

fn assert_scene(caption: &str, name: &str, cc: &str) -> Confidence {
    let Some((n, c, conf)) = scene(caption) else {
        panic!("{caption:?}: no location, want {name}");
    };
    assert_eq!((n.as_str(), c.as_str()), (name, cc), "{caption:?}");
    conf
}

#[test]
fn arabic_kind_word_with_a_glued_preposition_places_the_name() {
    assert_scene(
        "رجال إطفاء يخمدون حريقا في سوق شعبي بمدينة حلب (أ ف ب)",
        "Aleppo",
        "SY",
    );
    // `ل` on the kind word: a picture of the city.
    assert_scene("لقطة جوية لمدينة حلب بعد القصف (رويترز)", "Aleppo", "SY");
}

#[test]
fn arabic_unknown_neighbourhood_is_placed_at_its_city_with_low_confidence() {
    // The neighbourhood is not in the gazetteer: the city that holds it is the scene.
    let conf = assert_scene(
        "سكان يزيلون الركام في حي الشيخ طه بمدينة حلب (أ ف ب)",
        "Aleppo",
        "SY",
    );
    assert_eq!(conf, Confidence::Low);
}

#[test]
fn arabic_name_far_from_its_container_is_not_taken() {
    // `الزيتون` is also a town abroad; inside Gaza City it is the neighbourhood there.
    assert_scene(
        "أطفال يلعبون قرب خيمة في حي الزيتون بمدينة غزة (الأناضول)",
        "Gaza",
        "PS",
    );
}

#[test]
fn arabic_common_words_are_no_places() {
    // "the city", "the capital", "the picture", "scene": none of them is a place.
    assert_eq!(
        scene("تظهر في الصورة امرأة تحمل طفلها في المدينة بعد عودتها إلى العاصمة"),
        None
    );
    assert_scene(
        "في مشهد مؤلم، عائلات تنتظر المساعدات في قطاع غزة (أ ف ب)",
        "Gaza Strip",
        "PS",
    );
}

#[test]
fn arabic_head_word_alone_is_not_a_name() {
    // `باب` begins a longer name the gazetteer lacks; the city after it is the scene.
    assert_scene(
        "دمار في منطقة باب المقام في المدينة القديمة بمدينة حلب",
        "Aleppo",
        "SY",
    );
}

#[test]
fn arabic_clitics_on_names_are_read_off() {
    assert_scene(
        "جنود يقفون قرب مبنى مدمر في الضاحية الجنوبية لبيروت (أ ف ب)",
        "Beirut",
        "LB",
    );
}

#[test]
fn arabic_quoted_name_after_a_kind_word() {
    assert_scene(
        "طفل يحمل الخبز في بلدة «دوما» شرق العاصمة السورية (أ ف ب)",
        "Dūmā",
        "SY",
    );
}

#[test]
fn arabic_on_and_to_set_the_scene() {
    assert_scene("آثار القصف الجوي على حلب - 3 مايو 2016.", "Aleppo", "SY");
    assert_scene(
        "مسعفون ينقلون جريحا إلى مستشفى بيت لاهيا (الفرنسية)",
        "Bayt Lāhyā",
        "PS",
    );
}

#[test]
fn arabic_from_after_a_flight_word_is_an_origin() {
    assert_scene(
        "عائلات قررت الفرار من مدينة حلب ووصلت إلى بلدة منبج (أ ف ب)",
        "Manbij",
        "SY",
    );
}

#[test]
fn german_kind_noun_before_the_name() {
    assert_scene(
        "Feuerwehrleute löschen einen Brand in der ostukrainischen Stadt Tschuhujiw. Foto: Jane Roe/AP/dpa",
        "Chuhuyiv",
        "UA",
    );
    assert_scene(
        "Die russische Stadt Sudscha im Gebiet Kursk liegt in Trümmern. Foto: John Roe/AP/dpa",
        "Sudzha",
        "RU",
    );
}

#[test]
fn german_closing_dateline_and_genitive() {
    assert_scene(
        "Viele Bewohner Charkiws suchen Schutz in Kellern. Charkiw, 3. März. Bild: dpa / Jane Roe",
        "Kharkiv",
        "UA",
    );
    assert_scene(
        "Rauch steigt über den Dächern auf. Kiew, 12. Februar.Bild: AA / JOHN ROE",
        "Kyiv",
        "UA",
    );
}

#[test]
fn german_compound_city_name() {
    assert_scene(
        "Trümmer in einem Viertel in Gaza-Stadt | © Jane Roe/Getty Images",
        "Gaza",
        "PS",
    );
}

#[test]
fn romance_kind_phrase_sets_the_scene() {
    assert_scene(
        "Desplazados hacen cola en el campo de refugiados de Zaatari, en Jordania. Foto: EFE/Juan Pérez",
        "Zaatari camp",
        "JO",
    );
    assert_scene(
        "Des habitants fuient le district d'Abs de la province de Hajjah, au Yémen. Jean Dupont / AFP",
        "Abs",
        "YE",
    );
}

#[test]
fn romance_demonym_gives_the_country() {
    // `yemení` puts `Shabwa` in Yemen, not in a same-sounding town abroad.
    let got = scene("Soldados yemeníes patrullan en la provincia de Shabwa. Foto: EFE/Juan Pérez");
    assert_eq!(got.map(|(_, c, _)| c).as_deref(), Some("YE"));
}

#[test]
fn arabic_on_takes_only_well_known_places() {
    // "on the brow of the homeland": a common word that is also a village's name.
    assert_scene(
        "دموع على جبين الوطن.. طفل نازح في مخيم بمحافظة تعز (أ ف ب)",
        "Ta'izz",
        "YE",
    );
}

#[test]
fn arabic_flight_verb_opening_the_clause_makes_from_an_origin() {
    assert_scene(
        "نزح هؤلاء الأطفال مع أسرهم من مدينة الموصل إلى مخيم قرب مدينة أربيل (أ ف ب)",
        "Erbil",
        "IQ",
    );
}

#[test]
fn german_picture_marker_is_no_place() {
    assert_scene(
        "Bild: AFP Eine Frau steht vor ihrem zerstörten Haus in Irpin. In dem Vorort von Kiew wird gekämpft.",
        "Irpin",
        "UA",
    );
}

#[test]
fn relative_position_makes_the_first_place_the_scene() {
    assert_scene(
        "Desplazados iraquíes reciben comida en Qayyara, al sur de Mosul, el 3 de mayo de 2017. Foto: EFE/Juan Pérez",
        "Al Qayyārah",
        "IQ",
    );
    assert_scene(
        "Des secouristes fouillent les décombres à Irpin, au nord-ouest de Kiev. Jean Dupont / AFP",
        "Irpin",
        "UA",
    );
}

#[test]
fn a_building_named_after_a_word_that_is_a_country_is_no_place() {
    let r = extractor().extract(
        "Cientos de personas se concentran ante el Palau de la Generalitat este lunes. Foto: EFE/Ana Gómez",
    );
    assert!(
        r.location
            .as_ref()
            .is_none_or(|p| p.country.as_deref() != Some("PW")),
        "{:?}",
        r.location
    );
}

#[test]
fn arabic_spelling_with_other_long_vowels_matches_in_context() {
    // The gazetteer spells Kharkiv `خاركوف`; the demonym puts the caption in Ukraine.
    assert_scene(
        "رجال إنقاذ يبحثون بين الأنقاض في مدينة خاركيف الأوكرانية (أ ف ب)",
        "Kharkiv",
        "UA",
    );
}

#[test]
fn arabic_name_written_without_its_first_alef() {
    // The gazetteer writes `أعزاز`; the caption leaves the hamza's alef out.
    let got = scene("أطفال يلعبون في الوحل بمنطقة عزاز قرب الحدود السورية التركية (أ ف ب)");
    let (name, cc, _) = got.expect("a location");
    assert!(name.contains("zāz"), "{name}");
    assert_eq!(cc, "SY");
}

#[test]
fn arabic_long_name_with_other_vowels_matches_outside_the_captions_countries() {
    // The gazetteer writes `سيمفروبول`; the caption names Russia, not Ukraine.
    assert_scene(
        "مواطنون يضعون الشموع في وسط مدينة سيمفيروبول بعد الانفجار، بحسب وسائل إعلام روسية",
        "Simferopol",
        "UA",
    );
    // "They went back to their homes": its consonants are Durham's, but `إلى` does not
    // place it, and nothing else in the caption is a place.
    assert_eq!(scene("عاد النازحون إلى ديارهم بعد انتهاء المعارك"), None);
}

#[test]
fn arabic_camp_name_ends_before_for_the_displaced() {
    // `للنازحين` ("for the displaced") is no part of the camp's name, and the camp's
    // name is read whole: no village elsewhere named like its first word.
    let r = extractor().extract("أطفال يلعبون في مخيم الخازر للنازحين قرب مدينة الموصل (رويترز)");
    assert!(
        r.warnings
            .iter()
            .any(|w| w.starts_with("place \"الخازر\" is not in the gazetteer")),
        "{:?}",
        r.warnings
    );
    assert_eq!(r.location.and_then(|p| p.country).as_deref(), Some("IQ"));
}

#[test]
fn arabic_camp_named_like_a_far_village_lies_where_the_caption_places_it() {
    // `الجنينة` is a village far east of Idlib; the camp is in a village of Idlib.
    assert_scene(
        "تلاميذ في صف مؤقت في مخيم الجنينة للمشردين في قرية أطمي، في محافظة إدلب (أ ف ب)",
        "Idlib",
        "SY",
    );
}

#[test]
fn arabic_neighbourhood_lies_in_the_city_the_caption_names_elsewhere() {
    // The city is named without a word that places it (`أسواق حلب`, "Aleppo's
    // markets"); the neighbourhood the gazetteer lacks lies there.
    let conf = assert_scene(
        "دمرت الغارات الكثير من أسواق حلب القديمة. هنا يظهر شارع مدمر في حي كفر حمرة.",
        "Aleppo",
        "SY",
    );
    assert_eq!(conf, Confidence::Low);
}

#[test]
fn arabic_neighbourhood_is_not_a_village_abroad() {
    // `بني زيد` is a village in the West Bank; a neighbourhood of that name in a
    // caption about Aleppo is Aleppo's.
    assert_scene(
        "أطفال يلعبون بين الركام في حي بني زيد، بعد أسبوع من المعارك في حلب (أ ف ب)",
        "Bani Zeid",
        "SY",
    );
    // With nothing to say which city holds it, it is no place rather than the village.
    let got = scene("صورة لحي بني زيد بعد أسبوع من المعارك");
    assert!(got.as_ref().is_none_or(|(_, cc, _)| cc != "PS"), "{got:?}");
}

#[test]
fn arabic_flight_from_the_areas_of_a_city_is_an_origin() {
    // "Displaced fleeing the areas of fighting in Mosul, inside a camp north-west of
    // Erbil": the scene is near Erbil, not in Mosul.
    assert_scene(
        "نازحون فارين من مناطق القتال في الموصل يتجمعون داخل مخيم «زعيبر» شمال غرب أربيل (رويترز)",
        "Erbil",
        "IQ",
    );
}

#[test]
fn arabic_conjunction_ends_an_unknown_name() {
    // `وتحول` ("and turns") opens a new clause: the neighbourhood is `الزيتون` alone.
    let r = extractor().extract("أمطار تغرق خياما في حي الزيتون وتحول الشوارع إلى برك (الأناضول)");
    assert!(
        r.warnings
            .iter()
            .any(|w| w.starts_with("place \"الزيتون\" is not in the gazetteer")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn a_repeated_arabic_name_is_the_city_named_first() {
    // `حلب` is Aleppo and its governorate; named first as the city, it stays the city.
    assert_scene(
        "يعيش سكان مدينة حلب أياما صعبة. وفي هذه الصورة نرى رجلا يمر قرب حي «باب الجنان». لم يبق شيء تقريبا في حلب.",
        "Aleppo",
        "SY",
    );
}

#[test]
fn photo_sentence_markers_in_other_languages_set_the_scene() {
    assert_scene(
        "Unicef denuncia la desnutrición infantil en Yemen. En la imagen, unos niños buscan comida en un vertedero de la ciudad portuaria de Hodeida.",
        "Al Ḩudaydah",
        "YE",
    );
    assert_scene(
        "بدأت المعارك في الموصل قبل أسبوع. وفي هذه الصورة نرى أطفالا يلعبون في مدينة أربيل (أ ف ب)",
        "Erbil",
        "IQ",
    );
}

#[test]
fn french_and_spanish_kind_nouns_before_a_region_name_it() {
    // `la bande de Gaza` is the Gaza Strip, not Gaza City.
    assert_scene(
        "Des enfants jouent près des tentes au sud de la bande de Gaza, le 3 mars 2024. (Photo Jean Dupont / AFP)",
        "Gaza Strip",
        "PS",
    );
    // Named by a part of it, the region gives way to the camp in it the caption names.
    assert_scene(
        "Un garçon a été blessé par une frappe sur le camp de réfugiés de Rafah. Sur cette photo, il se tient devant sa maison, au sud de la bande de Gaza.",
        "Rafaḩ",
        "PS",
    );
}

#[test]
fn a_sports_league_is_no_place() {
    // `Liga` is another name of Riga.
    let got = scene("El Barcelona ganó en la Liga el domingo ante su público. Foto: EFE/Ana Gómez");
    assert!(got.as_ref().is_none_or(|(_, cc, _)| cc != "LV"), "{got:?}");
}

#[test]
fn a_capitalised_preposition_opening_the_sentence_places_the_name() {
    // `En Syrie,`: the preposition is no part of the name, and it sets the scene.
    let conf = assert_scene(
        "En Syrie, des enfants jouent dans les ruines d'une école. Jean Dupont / AFP",
        "Syria",
        "SY",
    );
    // A whole country is seldom the point a photo was taken at: the calibrated model
    // says so, however clearly the sentence sets the scene there.
    assert_ne!(conf, Confidence::High);
}

#[test]
fn spanish_strip_and_jim_spellings_are_read() {
    // `Franja de Gaza` is the Gaza Strip; a camp the gazetteer lacks lies in it.
    assert_scene(
        "Niños juegan en un campamento improvisado en el norte de la Franja de Gaza. Foto: EFE/Ana Gómez",
        "Gaza Strip",
        "PS",
    );
    // Spanish writes `Yabalia` where the gazetteer has `Jabalia`.
    assert_scene(
        "Mujeres esperan agua en el campo de refugiados de Yabalia, en el norte de la Franja de Gaza.",
        "Jabālyā",
        "PS",
    );
}

#[test]
fn a_country_named_in_another_language_gives_context() {
    // `soudanais` alone would put the caption in Sudan; `Tchad` puts the small town in
    // Chad, where it is.
    assert_scene(
        "Des réfugiés soudanais attendent une distribution d'eau à Adré, au Tchad. (Photo Jean Dupont / AFP)",
        "Adré",
        "TD",
    );
}

#[test]
fn arabic_house_and_for_the_refugees_are_no_places() {
    // "in front of his house" is no town abroad; the neighbourhood is Gaza City's.
    assert_scene(
        "رجل يقف أمام منزله المدمر في حي الشيخ رضوان بمدينة غزة (الأناضول)",
        "Sheikh Radwan",
        "PS",
    );
    // `مخيم للاجئين`, "a camp for refugees", names no camp.
    let r = extractor().extract("امرأة تبكي في مخيم للاجئين قرب بلدة أطمة على الحدود التركية");
    assert!(
        r.places.iter().all(|p| p.text != "للاجئين"),
        "{:?}",
        r.places
    );
}

#[test]
fn arabic_capital_and_demonym_before_the_name() {
    // "in the sky of the Yemeni capital Sanaa".
    assert_scene(
        "دخان يتصاعد في سماء العاصمة اليمنية صنعاء بعد غارة جوية (أ ف ب)",
        "Sanaa",
        "YE",
    );
}

#[test]
fn arabic_accusative_demonym_gives_context_but_the_country_stays_a_country() {
    // `سورياً` ("Syrian", accusative) puts Douma in Syria, not in the West Bank.
    assert_scene("نرى طفلا سورياً يسير في شارع مدمر في بلدة دوما", "Dūmā", "SY");
    assert_scene("أطفال يلعبون بين الخيام في سوريا (أ ف ب)", "Syria", "SY");
}

#[test]
fn arabic_small_town_abroad_gives_way_to_the_captions_city() {
    // Without a kind word, `بني زيد` read as the West Bank village while the caption's
    // city is Aleppo is another place.
    assert_scene(
        "أطفال يلعبون في بني زيد، بعد أسبوع من المعارك في حلب (أ ف ب)",
        "Aleppo",
        "SY",
    );
}

#[test]
fn arabic_town_across_a_border_from_the_city_left_is_kept() {
    // "Displaced from Aleppo arrived in the town of Kilis": a town, named as one, may lie
    // in another country than the city people fled, and it is where they are.
    assert_scene("نازحون من حلب وصلوا إلى بلدة كلس قبل أيام", "Kilis", "TR");
}

#[test]
fn a_site_named_before_de_lies_in_the_place_after_it() {
    // `l'hôpital Nasser de Khan Younès`: the hospital's name is no person's, and the
    // town after `de` is where it stands.
    assert_scene(
        "Des enfants blessés sont soignés à l'hôpital Nasser de Khan Younès, dans le sud de la bande de Gaza. (Photo Jean Dupont / AFP)",
        "Khān Yūnis",
        "PS",
    );
    assert_scene(
        "Manifestantes se concentran en la plaza Tahrir de El Cairo. Foto: EFE/Ana Gómez",
        "Cairo",
        "EG",
    );
}

#[test]
fn a_demonym_by_a_border_names_the_neighbour_not_the_captions_country() {
    // `la frontière turque` does not put the caption in Turkey: Idleb, an alternate
    // name, is still read in Syria.
    assert_scene(
        "Des enfants jouent dans un camp de déplacés à Atmé, près de la frontière turque, dans la province d'Idleb.",
        "Idlib",
        "SY",
    );
}

#[test]
fn a_german_article_opening_the_sentence_is_no_place() {
    // `Das` is also a town in Spain.
    let got = scene("Das Westjordanland ist abgeriegelt. Foto: Max Muster/dpa");
    assert!(got.as_ref().is_none_or(|(_, cc, _)| cc != "ES"), "{got:?}");
}

#[test]
fn arabic_qaf_and_kaf_spellings_of_a_foreign_name_match() {
    // The gazetteer writes `قهرمان مرعش`; the caption writes the name with `ك`.
    assert_scene(
        "عمال إنقاذ يبحثون عن ناجين في مدينة كهرمان مرعش بعد الزلزال",
        "Kahramanmaraş",
        "TR",
    );
}

#[test]
fn a_name_after_a_romance_kind_phrase_is_read_whole() {
    // `Hassan` alone is a city in India: the camp's name is `Hassan Sham`, which the
    // gazetteer lacks, east of Mosul.
    let got = scene(
        "Des déplacés irakiens au camp de Hassan Sham, à l'est de Mossoul. (Photo Jean Dupont / AFP)",
    );
    assert!(got.as_ref().is_some_and(|(_, cc, _)| cc == "IQ"), "{got:?}");
}

#[test]
fn a_citys_part_by_its_bearing_is_the_city() {
    assert_scene(
        "Vue des ruines de Mossoul-Ouest, en Irak, le 10 juillet 2017. (Photo Jean Dupont / AFP)",
        "Mosul",
        "IQ",
    );
}

#[test]
fn region_in_spanish_and_french_hints_a_province() {
    let r = extractor()
        .extract("Un soldado ucraniano patrulla en la región de Donetsk. Foto: EFE/Ana Gómez");
    let p = r.location.expect("a location");
    assert_eq!(
        (p.kind, p.country.as_deref()),
        (cairn_model::PlaceKind::Admin1, Some("UA"))
    );
}

#[test]
fn arabic_kind_word_with_the_article_is_no_place() {
    // "in the neighbourhood": `الحي` is spoken of, not named (and `حي` is a town in Iraq).
    assert_eq!(scene("عائلة تتناول الإفطار بين الأنقاض في الحي"), None);
}

#[test]
fn a_site_of_a_place_sets_the_scene_in_it() {
    // `l'hôpital de Bangui`: the hospital is in Bangui, with the article elided onto the
    // site noun.
    let conf = assert_scene(
        "Un blessé est soigné à l'hôpital de Bangui, le 3 mars 2024. (Photo Jean Dupont / AFP)",
        "Bangui",
        "CF",
    );
    assert_ne!(conf, Confidence::Low);
}

#[test]
fn an_institution_with_a_capital_is_no_town() {
    // `El Congreso` is a town in Mexico.
    let got =
        scene("El presidente interviene en el Congreso de los Diputados. Foto: EFE/Ana Gómez");
    assert!(got.as_ref().is_none_or(|(_, cc, _)| cc != "MX"), "{got:?}");
}

#[test]
fn german_spellings_and_compass_nouns() {
    // `Chan Junis`, `Dschabalija`: German writes `ch`, `j`, `dsch` for `kh`, `y`, `j`.
    assert_scene(
        "Ein Mann vor den Trümmern seines Hauses in Chan Junis. Foto: Max Muster/dpa",
        "Khān Yūnis",
        "PS",
    );
    assert_scene(
        "Zerstörte Häuser im Flüchtlingslager Dschabalija. Foto: Max Muster/dpa",
        "Jabālyā",
        "PS",
    );
    // `im Süden des Gazastreifens`: a compass noun, a genitive.
    assert_scene(
        "Zelte stehen dicht an dicht im Süden des Gazastreifens. Foto: Max Muster/dpa",
        "Gaza Strip",
        "PS",
    );
    // `Lager` is a kind noun, not part of a person's name.
    assert_scene(
        "Kinder spielen im Lager Zaatari in Jordanien. Foto: Max Muster/dpa",
        "Zaatari camp",
        "JO",
    );
}

#[test]
fn country_names_of_the_five_new_desks() {
    // Italian and Portuguese country names, and Cyrillic ones under a case ending, give
    // the country where the caption names no town the gazetteer holds.
    for (caption, cc) in [
        (
            "Profughi in attesa al confine, in Turchia, il 3 marzo.",
            "TR",
        ),
        (
            "Famílias deslocadas chegam a um abrigo em Moçambique.",
            "MZ",
        ),
        ("Беженцы на вокзале в Польше, 3 марта.", "PL"),
        ("Рятувальники працюють у Туреччині після землетрусу.", "TR"),
    ] {
        let (_, got, _) = scene(caption).unwrap_or_else(|| panic!("no scene: {caption}"));
        assert_eq!(got, cc, "{caption}");
    }
}

#[test]
fn italian_and_portuguese_kind_phrases_place_the_name() {
    for (caption, name, cc) in [
        (
            "Due operai sistemano le lapidi nel cimitero di Soma, dopo la cerimonia.",
            "Soma",
            "TR",
        ),
        (
            "Una classe vuota in una scuola di Kramatorsk, usata come rifugio.",
            "Kramatorsk",
            "UA",
        ),
        (
            "Crianças brincam no bairro de Ipanema, no Rio de Janeiro.",
            "Ipanema",
            "BR",
        ),
    ] {
        assert_scene(caption, name, cc);
    }
}

#[test]
fn a_region_after_a_comma_holds_the_place_before_it() {
    // `nella regione di` and `no` say what holds the name before them, as `, in the
    // X region` does in English; a province's namesake abroad is not meant.
    for (caption, name, cc) in [
        (
            "Una veduta aerea di Bachmut, nella regione di Donetsk, a maggio.",
            "Bakhmut",
            "UA",
        ),
        (
            "Fumaça sobe de uma queimada em Lábrea, no Amazonas, nesta terça.",
            "Lábrea",
            "BR",
        ),
    ] {
        assert_scene(caption, name, cc);
    }
}

#[test]
fn the_outskirts_of_a_town_in_italian_and_portuguese() {
    assert_scene(
        "Case distrutte nella periferia di Ramallah dopo un raid notturno.",
        "Ramallah",
        "PS",
    );
    assert_scene("Famílias acampam nos arredores de Cabul.", "Kabul", "AF");
}

#[test]
fn a_turkish_kind_word_says_which_namesake_and_a_suffix_ends_a_name() {
    // `ilçesinde`: the district, not the hamlet of the same name far east.
    let (_, cc, _) =
        scene("Bayraklı ilçesindeki yıkılan binanın önünde bekleyen aileler.").expect("a scene");
    assert_eq!(cc, "TR");
    let x = extractor();
    let r = x.extract("Bayraklı ilçesindeki yıkılan binanın önünde bekleyen aileler.");
    let l = r.location.expect("a location");
    assert!(
        (l.lat - 38.46).abs() < 0.2 && (l.lon - 27.16).abs() < 0.2,
        "{:?}",
        (l.lat, l.lon)
    );
    // A name with a case suffix ends there: the next capitalised word is another name.
    assert_scene(
        "Anadolu Yakası'nda Eyüpsultan ilçesinde sabah saatlerinde sis etkili oldu.",
        "Eyüpsultan",
        "TR",
    );
}
