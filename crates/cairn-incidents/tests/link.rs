//! Linking on hand-built records: what links, what stays apart, and that the order of
//! arrival changes nothing.

use cairn_incidents::{Grade, Item, Reason, incidents};
use cairn_model::{
    Casualties, Count, Credit, DateValue, Place, PlaceKind, Precision, Record, Span,
};
use proptest::prelude::*;

fn place(id: &str, kind: PlaceKind, lat: f64, lon: f64, within: &[&str]) -> Place {
    Place {
        name: id.into(),
        text: id.into(),
        lat,
        lon,
        kind,
        admin1: None,
        country: Some("SY".into()),
        gazetteer_id: Some(id.into()),
        span: Span::new(0, 0),
        within: within.iter().map(|s| s.to_string()).collect(),
        confidence: None,
        reason: None,
    }
}

fn douma() -> Place {
    place(
        "geonames:170592",
        PlaceKind::Town,
        33.5711,
        36.4028,
        &["geonames:163843"],
    )
}

fn harasta() -> Place {
    place(
        "geonames:170017",
        PlaceKind::Town,
        33.5586,
        36.365,
        &["geonames:163843"],
    )
}

fn count(low: u32, high: Option<u32>) -> Count {
    Count {
        low,
        high,
        text: String::new(),
        span: Span::new(0, 0),
    }
}

fn rec(text: &str, day: &str, at: Place, killed: Option<Count>, agency: &str) -> Record {
    let precision = match day.len() {
        10 => Precision::Day,
        7 => Precision::Month,
        _ => Precision::Year,
    };
    Record {
        text: text.into(),
        date: Some(DateValue {
            value: day.into(),
            precision,
            text: day.into(),
            span: Span::new(0, 0),
        }),
        location: Some(at),
        casualties: Casualties {
            killed,
            injured: None,
        },
        event_types: if text.contains("strike") {
            vec!["Air/drone strike".into()]
        } else {
            vec![]
        },
        credit: Some(Credit {
            raw: agency.into(),
            photographers: vec![],
            agency: Some(agency.into()),
            distributor: None,
            span: Span::new(0, 0),
            flags: vec![],
        }),
        ..Record::default()
    }
}

/// Three photographs of one strike, and the distractors around it.
fn scene() -> Vec<Item> {
    let strike = "Rescuers search the rubble of the market after an air strike";
    let recs = vec![
        rec(strike, "2018-02-20", douma(), Some(count(12, None)), "AFP"),
        rec(
            "A man carries a child from the souk hit by a strike",
            "2018-02-20",
            douma(),
            Some(count(15, Some(15))),
            "Reuters",
        ),
        rec(
            "Smoke over the marketplace after the strike",
            "2018-02-20",
            douma(),
            None,
            "AP",
        ),
        // Same market, the next day.
        rec(strike, "2018-02-21", douma(), Some(count(3, None)), "AFP"),
        // Same day, the neighbouring town, another site.
        rec(
            "Civil defence at a school hit by a strike",
            "2018-02-20",
            harasta(),
            Some(count(4, None)),
            "AFP",
        ),
        // Same day, same town, another event.
        rec(
            "A bride and groom at their wedding",
            "2018-02-20",
            douma(),
            None,
            "AFP",
        ),
        // The funeral that follows.
        rec(
            "Mourners at the funeral of people killed at the market in the strike",
            "2018-02-20",
            douma(),
            Some(count(12, None)),
            "AFP",
        ),
        // The same strike known only by its year.
        rec(strike, "2018", douma(), None, "AFP"),
    ];
    recs.into_iter()
        .enumerate()
        .map(|(i, r)| Item {
            id: 10 + i as i64,
            record: r,
        })
        .collect()
}

#[test]
fn one_strike_links_and_its_distractors_stay_apart() {
    let got = incidents(&scene());
    let big: Vec<_> = got.iter().filter(|i| i.captions.len() > 1).collect();
    assert_eq!(big.len(), 1, "{got:#?}");
    let inc = big[0];
    assert_eq!(inc.captions, vec![10, 11, 12]);
    assert_eq!(inc.id, 10);
    assert!(
        inc.links
            .iter()
            .all(|l| l.reasons.contains(&Reason::SameDay))
    );
    assert!(
        inc.links
            .iter()
            .any(|l| l.reasons.contains(&Reason::SameFacility))
    );
    let k = inc.killed.unwrap();
    assert_eq!((k.low, k.best, k.high, k.contested), (15, 15, 15, false));
    assert_eq!(inc.agencies, 3);
    assert_eq!(inc.grade, Grade::Several);
    assert_eq!(got.len(), 6);
}

#[test]
fn a_neighbourhood_links_with_its_town_and_contradicting_tolls_are_contested() {
    let quarter = place(
        "cairn:douma-market",
        PlaceKind::Neighbourhood,
        33.572,
        36.404,
        &["geonames:170592"],
    );
    let items = vec![
        Item {
            id: 1,
            record: rec(
                "Market hit by a strike",
                "2018-02-20",
                douma(),
                Some(count(8, Some(8))),
                "AFP",
            ),
        },
        Item {
            id: 2,
            record: rec(
                "The market after the strike",
                "2018-02-20",
                quarter,
                Some(count(20, Some(20))),
                "AFP",
            ),
        },
    ];
    let got = incidents(&items);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0].links[0].reasons.contains(&Reason::WithinPlace));
    assert_eq!(
        got[0].location.as_ref().unwrap().kind,
        PlaceKind::Neighbourhood
    );
    assert!(got[0].contested);
    assert_eq!(got[0].grade, Grade::Contested);
}

#[test]
fn a_chain_of_links_does_not_carry_an_incident_across_days() {
    // b (a month) agrees with a and c (two days), which do not agree with each other.
    let items = vec![
        Item {
            id: 1,
            record: rec(
                "Strike on the market",
                "2018-02-20",
                douma(),
                Some(count(3, None)),
                "AFP",
            ),
        },
        Item {
            id: 2,
            record: rec(
                "Strike on the market",
                "2018-02",
                douma(),
                Some(count(3, None)),
                "AP",
            ),
        },
        Item {
            id: 3,
            record: rec(
                "Strike on the market",
                "2018-02-22",
                douma(),
                Some(count(3, None)),
                "AFP",
            ),
        },
    ];
    let got = incidents(&items);
    assert!(
        got.iter()
            .all(|i| !(i.captions.contains(&1) && i.captions.contains(&3))),
        "{got:#?}"
    );
    assert!(got.iter().any(|i| i.captions.len() == 2), "{got:#?}");
}

proptest! {
    #[test]
    fn any_order_of_arrival_gives_the_same_incidents(seed in any::<u64>()) {
        let items = scene();
        let mut shuffled = items.clone();
        let n = shuffled.len();
        let mut s = seed;
        for i in (1..n).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        prop_assert_eq!(incidents(&items), incidents(&shuffled));
    }
}

#[test]
fn a_country_wide_location_links_only_on_strong_evidence() {
    let syria = place("geonames:163843", PlaceKind::Country, 35.0, 38.0, &[]);
    let weak = vec![
        Item {
            id: 1,
            record: rec(
                "Strike on the market",
                "2018-02-20",
                douma(),
                Some(count(3, None)),
                "AFP",
            ),
        },
        Item {
            id: 2,
            record: rec(
                "A strike",
                "2018-02-20",
                syria.clone(),
                Some(count(3, None)),
                "AP",
            ),
        },
    ];
    assert!(incidents(&weak).iter().all(|i| i.captions.len() == 1));
    let strong = vec![
        weak[0].clone(),
        Item {
            id: 2,
            record: rec(
                "A strike on the market",
                "2018-02-20",
                syria,
                Some(count(3, None)),
                "AP",
            ),
        },
    ];
    let got = incidents(&strong);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0].links[0].reasons.contains(&Reason::WithinPlace));
}
