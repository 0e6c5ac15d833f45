use super::*;
use crate::text::sentences;

type LowHigh = Option<(u32, Option<u32>)>;

fn cas(t: &str) -> (LowHigh, LowHigh) {
    let (k, i, _) = casualties(t, &sentences(t), &Mask::default());
    (k.map(|c| (c.low, c.high)), i.map(|c| (c.low, c.high)))
}

#[test]
fn casualty_counts() {
    assert_eq!(
        cas("At least four children were killed and 19 people injured in the strike."),
        (Some((4, None)), Some((19, Some(19))))
    );
    assert_eq!(
        cas("At least 70 people died in the raid."),
        (Some((70, None)), None)
    );
    assert_eq!(
        cas("Dozens of people were killed."),
        (Some((24, None)), None)
    );
    assert_eq!(
        cas("A blast killed 12 people and wounded 30."),
        (Some((12, Some(12))), Some((30, Some(30))))
    );
    assert_eq!(
        cas(
            "The city has suffered in the war that has killed more than 280,000 people nationwide."
        ),
        (None, None)
    );
    assert_eq!(cas("A man carries an injured woman."), (None, None));
}

#[test]
fn tolls_of_the_scene_only() {
    // Another event, a war's total, a rate: none is the scene's toll.
    assert_eq!(
        cas(
            "A boy stands in a shelled school in Idlib. Elsewhere, a car bomb went off in Azaz, killing at least 17."
        ),
        (None, None)
    );
    assert_eq!(
        cas("Medics carry a man in Taiz. The fighting has killed more than 3,500 people."),
        (None, None)
    );
    assert_eq!(
        cas(
            "A girl waits in Khan Younis. More than 12,300 people have been killed, the ministry says."
        ),
        (None, None)
    );
    assert_eq!(
        cas("A road in Beira. Floods have killed 150 people so far, officials said."),
        (None, None)
    );
    assert_eq!(
        cas("Pupils in Goma, where an average of nine people are killed every week."),
        (None, None)
    );
    // A count ends at a relative pronoun or a unit of time.
    assert_eq!(
        cas("His wife of 51 years who died in May was buried."),
        (None, None)
    );
    // A superlative picks one person out; it counts no one.
    assert_eq!(
        cas("Ana Ruiz, one of the most badly injured students, rests at home."),
        (None, None)
    );
    // "Nearly" gives no low value.
    assert_eq!(cas("The blast wounded nearly 90 people."), (None, None));
}

#[test]
fn sums_and_phrasings() {
    assert_eq!(
        cas("Three boys and two women were killed when the roof fell."),
        (Some((5, Some(5))), None)
    );
    assert_eq!(
        cas("Two farmers and an elderly shepherd were killed by a mine."),
        (Some((3, Some(3))), None)
    );
    assert_eq!(
        cas("Police said four men were shot to death outside the bar."),
        (Some((4, Some(4))), None)
    );
    assert_eq!(
        cas("Rescuers said the death toll from the landslide in the valley had risen to over 60."),
        (Some((60, None)), None)
    );
    assert_eq!(
        cas("Officials put the number of dead at 31 and 80 wounded."),
        (Some((31, Some(31))), Some((80, Some(80))))
    );
    assert_eq!(
        cas("Divers said nine bodies were recovered from the river."),
        (Some((9, Some(9))), None)
    );
    assert_eq!(
        cas("A shell hit the bus stop on December 12, where eleven were killed."),
        (Some((11, Some(11))), None)
    );
    assert_eq!(cas("Hundreds were injured in the stampede."), (None, None));
    assert_eq!(
        cas("The fire claimed the lives of at least 27 patients."),
        (Some((27, None)), None)
    );
    assert_eq!(
        cas("A dozen people were wounded."),
        (None, Some((12, Some(12))))
    );
    // A list of the dead, summed.
    assert_eq!(
        cas("Neighbours wait outside. The dead include two men, three women and a child."),
        (Some((6, Some(6))), None)
    );
    assert_eq!(
        cas("The dead were two police officers and a driver, officials said."),
        (Some((3, Some(3))), None)
    );
    assert_eq!(
        cas("Two brothers and four cousins were killed in the strike on the farm."),
        (Some((6, Some(6))), None)
    );
}

#[test]
fn lives_lost_and_claimed() {
    assert_eq!(
        cas("Divers search the lake. Twelve people lost their lives when the ferry sank."),
        (Some((12, Some(12))), None)
    );
    assert_eq!(
        cas("Firefighters douse the ruins. The blaze claimed at least 30 lives."),
        (Some((30, None)), None)
    );
}

#[test]
fn tolls_of_events_compared_are_background() {
    assert_eq!(
        cas("A man mourns in Herat. A similar attack in March killed 30 people."),
        (None, None)
    );
    assert_eq!(
        cas(
            "A man mourns in Herat. It was the deadliest attack since a bombing that killed 170 people."
        ),
        (None, None)
    );
    assert_eq!(
        cas(
            "A man mourns in Herat, where a bombing killed 12 people. Last year, a similar blast killed 40."
        ),
        (Some((12, Some(12))), None)
    );
    // After the toll, the comparison is of the scene's own event.
    assert_eq!(
        cas("A bombing killed 12 people in Herat, the deadliest attack since 2019."),
        (Some((12, Some(12))), None)
    );
}

#[test]
fn the_treated_are_injured() {
    assert_eq!(
        cas("Medics wait at the gate. Three men were being treated for their wounds."),
        (None, Some((3, Some(3))))
    );
    assert_eq!(
        cas("Two men died and four others are recovering from injuries in the clinic."),
        (Some((2, Some(2))), Some((4, Some(4))))
    );
}

#[test]
fn national_totals_are_background() {
    assert_eq!(
        cas("A man wades through a street in Sylhet. Across the country, 97 people have died."),
        (None, None)
    );
    assert_eq!(
        cas("Rescuers dig in Pokhara. Countrywide, the rains have killed 212 people."),
        (None, None)
    );
    assert_eq!(
        cas("A bus burns in Lahore. Nationwide, 31 people were injured in the protests."),
        (None, None)
    );
}

#[test]
fn other_languages() {
    assert_eq!(
        cas("Un marché bombardé à Idleb, où la frappe a fait au moins 14 morts et 40 blessés."),
        (Some((14, None)), Some((40, Some(40))))
    );
    assert_eq!(
        cas("Au moins six personnes ont été tuées dans l'explosion."),
        (Some((6, None)), None)
    );
    assert_eq!(
        cas("Une attaque au couteau, faisant trois blessés."),
        (None, Some((3, Some(3))))
    );
    assert_eq!(
        cas("Un bus calciné après l'attentat qui a fait plus de 1.200 morts à Mogadiscio."),
        (Some((1200, None)), None)
    );
    assert_eq!(
        cas("Al menos 15 muertos tras el derrumbe de un edificio en Lima."),
        (Some((15, None)), None)
    );
    assert_eq!(
        cas("El ataque mató a siete miembros de una familia."),
        (Some((7, Some(7))), None)
    );
    assert_eq!(
        cas("Bei dem Angriff wurden mindestens 23 Menschen getötet und Dutzende verletzt."),
        (Some((23, None)), Some((24, None)))
    );
    assert_eq!(
        cas("L'incendie a coûté la vie à neuf personnes."),
        (Some((9, Some(9))), None)
    );
    assert_eq!(
        cas("El alud costó la vida a 11 alpinistas."),
        (Some((11, Some(11))), None)
    );
    assert_eq!(
        cas("Bei dem Anschlag starben mindestens 14 Menschen."),
        (Some((14, None)), None)
    );
    assert_eq!(
        cas("Bei dem Unglück kamen zwölf Menschen ums Leben."),
        (Some((12, Some(12))), None)
    );
    assert_eq!(
        cas("غارة جوية أسفرت عن مقتل ما لا يقل عن ١٢ مدنيا وإصابة العشرات"),
        (Some((12, None)), Some((24, None)))
    );
    assert_eq!(
        cas("سقوط 7 قتلى في انفجار سيارة"),
        (Some((7, Some(7))), None)
    );
    assert_eq!(
        cas(
            "Des enfants à Gaza. Plus de 9.000 personnes ont trouvé la mort depuis le début de la guerre."
        ),
        (None, None)
    );
}

#[test]
fn tolls_that_rose_to_a_figure() {
    assert_eq!(
        cas("رجال الإنقاذ في حلب. ارتفعت حصيلة القتلى إلى 45"),
        (Some((45, Some(45))), None)
    );
    assert_eq!(
        cas("Rescatistas en Alepo. La cifra de muertos asciende a 45."),
        (Some((45, Some(45))), None)
    );
    assert_eq!(
        cas("Rettungskräfte in Aleppo. Die Zahl der Verletzten stieg auf 45."),
        (None, Some((45, Some(45))))
    );
}

proptest::proptest! {
    /// Reading tolls never cuts text inside a character, whatever stands around them.
    #[test]
    fn reading_tolls_never_panics(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "at least 12 ", "killed", " — ", "،", "مقتل ", "١٢", " et ", "morts", "é",
            "two men and a boy were killed", ". ", "Elsewhere, ", "; ", "au moins ", "Tote",
            "العشرات", "so far", " ", "3 ", "wounded",
        ]), 0..12)
    ) {
        let text: String = parts.concat();
        let (k, i, _) = casualties(&text, &sentences(&text), &Mask::default());
        for c in [k, i].into_iter().flatten() {
            proptest::prop_assert_eq!(&text[c.span.start..c.span.end], c.text);
        }
    }
}
