//! A labelled incident corpus: events each photographed by several photographers who
//! word the scene, the toll and the place's spelling their own way, and beside each event
//! the distractors that look like it (the same place the next day, a neighbouring town
//! the same day, another event in the same town the same day, the funeral that follows).
//! Each caption's label is its incident; every distractor is an incident of its own.
//!
//! Event `e` is a pure function of `(seed, e)`.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::desk::{Day, Desk, Story};
use crate::places::Spot;
use crate::{FIRST, Generator, LAST};
use cairn_gazetteer::Gazetteer;

/// One caption of the corpus with its incident.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncidentCaption {
    /// The caption text.
    pub text: String,
    /// The incident it shows.
    pub incident: u64,
}

/// Towns a few kilometres apart, as the news spells them.
const NEIGHBOURS: &[(&str, &str)] = &[
    ("Douma", "Harasta"),
    ("Gaza City", "Jabalia"),
    ("Khartoum", "Omdurman"),
    ("Khan Younis", "Rafah"),
];

/// Other spellings desks use, used only where the gazetteer knows them as the same place.
const SPELLINGS: &[(&str, &str)] = &[
    ("Douma", "Duma"),
    ("Idlib", "Idleb"),
    ("Kyiv", "Kiev"),
    ("Kharkiv", "Kharkov"),
    ("Sanaa", "Sana'a"),
    ("Jabalia", "Jabaliya"),
    ("Odesa", "Odessa"),
    ("Hodeidah", "Hudaydah"),
];

/// Sites an attack hits, each with the other words photographers use for it.
const SITES: &[&[&str]] = &[
    &["market", "marketplace", "souk"],
    &["hospital"],
    &["school"],
    &["bakery"],
    &["mosque"],
    &["bus station"],
];

/// Attacks: what happened, in several wordings.
const ATTACKS: &[&[&str]] = &[
    &["an air strike", "airstrikes", "a reported air strike"],
    &["shelling", "artillery shelling", "heavy shelling"],
    &["a car bomb explosion", "a car bomb blast"],
];

/// Scenes of an attack at a site: `{a}` the attack, `{s}` the site.
const SCENES: &[&str] = &[
    "Rescuers search the rubble of a {s} hit by {a}",
    "A man carries a wounded child away from the {s} after {a}",
    "Smoke rises over the {s} following {a}",
    "Civil defence members put out a fire at the {s} after {a}",
    "Residents inspect the damage at the {s} after {a}",
    "People gather at the site of {a}",
    "A boy looks at a destroyed car after {a}",
    "A wounded man receives treatment at a hospital after {a}",
];

const TOLL_SOURCES: &[&str] = &[
    "according to local medics",
    "according to the civil defence",
    "a local official said",
    "according to a war monitor",
];

const OTHER_EVENTS: &[&str] = &[
    "Demonstrators chant slogans during a protest against rising prices",
    "A bride and groom dance at their wedding party",
    "Children play football at a festival",
];

/// Generates labelled incident corpora.
#[derive(Debug, Clone)]
pub struct IncidentCorpus {
    base: Generator,
    seed: u64,
    /// The spellings of `SPELLINGS` the gazetteer knows as the place they stand for.
    spellings: Vec<(&'static str, &'static str)>,
}

struct Event {
    spot: Spot,
    day: Day,
    site: &'static [&'static str],
    attack: &'static [&'static str],
    killed: u32,
}

impl IncidentCorpus {
    /// A corpus for `seed` over the places the gazetteer knows.
    pub fn new(gazetteer: &Gazetteer, seed: u64) -> Self {
        let spellings = SPELLINGS
            .iter()
            .filter(|(a, b)| {
                let known = gazetteer.matches(a);
                gazetteer.matches(b).iter().any(|id| known.contains(id))
            })
            .copied()
            .collect();
        IncidentCorpus {
            base: Generator::new(gazetteer, seed, 10),
            seed,
            spellings,
        }
    }

    fn rng(&self, stream: u64, i: u64) -> ChaCha8Rng {
        let mut r = ChaCha8Rng::seed_from_u64(self.seed ^ 0x51ED_2701_A3C4_9B17);
        r.set_stream(stream);
        r.set_word_pos(u128::from(i) * 8192);
        r
    }

    fn event(&self, r: &mut ChaCha8Rng) -> Event {
        let spots = &self.base.spots;
        let neighboured: Vec<&Spot> = spots
            .iter()
            .filter(|s| NEIGHBOURS.iter().any(|(a, _)| *a == s.name))
            .collect();
        // Half the events stand where a neighbouring town gives a hard distractor.
        let spot = if r.random_bool(0.5) && !neighboured.is_empty() {
            (*neighboured.choose(r).unwrap()).clone()
        } else {
            spots[r.random_range(0..spots.len())].clone()
        };
        Event {
            spot,
            day: Day {
                year: r.random_range(2012..=2024),
                month: r.random_range(1..=12),
                day: r.random_range(1..=27),
            },
            site: SITES.choose(r).unwrap(),
            attack: ATTACKS.choose(r).unwrap(),
            killed: r.random_range(3..=40),
        }
    }

    /// The place's name as one desk spells it.
    fn spelled(&self, r: &mut ChaCha8Rng, spot: &Spot) -> Spot {
        let other = self
            .spellings
            .iter()
            .find(|(a, _)| *a == spot.name)
            .map(|(_, b)| *b);
        match other.filter(|_| r.random_bool(0.4)) {
            Some(b) => Spot {
                name: b,
                area: spot.area,
            },
            None => spot.clone(),
        }
    }

    fn toll(r: &mut ChaCha8Rng, killed: u32) -> Option<String> {
        let source = TOLL_SOURCES.choose(r).unwrap();
        Some(match r.random_range(0..5) {
            0 => return None,
            1 => format!(
                "At least {} people were killed, {source}.",
                killed.saturating_sub(r.random_range(0..3)).max(2)
            ),
            2 => format!("The attack killed {killed} people, {source}."),
            3 => format!("At least {killed} people were killed and dozens wounded, {source}."),
            _ => format!(
                "Medics said {} people were killed.",
                killed + r.random_range(0..4)
            ),
        })
    }

    fn write(
        &self,
        r: &mut ChaCha8Rng,
        scene: &str,
        spot: &Spot,
        day: Day,
        more: Vec<String>,
    ) -> String {
        let who = format!("{} {}", FIRST.choose(r).unwrap(), LAST.choose(r).unwrap());
        let desk = *Desk::ALL.choose(r).unwrap();
        let spot = self.spelled(r, spot);
        desk.write(&Story {
            scene,
            spot: &spot,
            day,
            more: &more,
            photographer: &who,
        })
    }

    /// One photograph of the event.
    fn photograph(&self, r: &mut ChaCha8Rng, ev: &Event) -> String {
        let scene = SCENES
            .choose(r)
            .unwrap()
            .replace("{s}", ev.site.choose(r).unwrap())
            .replace("{a}", ev.attack.choose(r).unwrap());
        let more = Self::toll(r, ev.killed).into_iter().collect();
        self.write(r, &scene, &ev.spot, ev.day, more)
    }

    /// A photograph that names the event's site.
    fn site_photograph(&self, r: &mut ChaCha8Rng, ev: &Event) -> String {
        let scene = SCENES[0]
            .replace("{s}", ev.site[0])
            .replace("{a}", ev.attack.choose(r).unwrap());
        let more = Self::toll(r, ev.killed).into_iter().collect();
        self.write(r, &scene, &ev.spot, ev.day, more)
    }

    /// The captions of event `e`: its photographs (incident `5 * e`) and its distractors
    /// (incidents `5 * e + 1` to `5 * e + 4`).
    pub fn event_captions(&self, e: u64) -> Vec<IncidentCaption> {
        let mut r = self.rng(1, e);
        let ev = self.event(&mut r);
        let label = |k: u64| 5 * e + k;
        let mut out: Vec<IncidentCaption> = (0..r.random_range(2..=5))
            .map(|_| IncidentCaption {
                text: self.photograph(&mut r, &ev),
                incident: label(0),
            })
            .collect();
        let next = Day {
            day: ev.day.day + 1,
            ..ev.day
        };
        let next_day = Event {
            spot: ev.spot.clone(),
            day: next,
            killed: r.random_range(1..=9),
            ..ev
        };
        out.push(IncidentCaption {
            text: self.photograph(&mut r, &next_day),
            incident: label(1),
        });
        let neighbour = NEIGHBOURS
            .iter()
            .find(|(a, _)| *a == ev.spot.name)
            .map(|(_, b)| *b);
        let distractor = match neighbour.filter(|b| self.base.spots.iter().any(|s| s.name == *b)) {
            Some(b) => {
                let there = Event {
                    spot: Spot {
                        name: b,
                        area: ev.spot.area,
                    },
                    day: ev.day,
                    killed: r.random_range(1..=9),
                    site: ev.site,
                    attack: ev.attack,
                };
                self.photograph(&mut r, &there)
            }
            None => {
                let scene = OTHER_EVENTS.choose(&mut r).unwrap();
                self.write(&mut r, scene, &ev.spot, ev.day, vec![])
            }
        };
        out.push(IncidentCaption {
            text: distractor,
            incident: label(2),
        });
        let funeral = format!(
            "Mourners carry the bodies of victims of {} on the {} during their funeral",
            ev.attack[0], ev.site[0]
        );
        let elsewhere = SITES
            .iter()
            .copied()
            .filter(|s| *s != ev.site)
            .collect::<Vec<_>>();
        let other_site = Event {
            spot: ev.spot.clone(),
            day: ev.day,
            killed: r.random_range(1..=9),
            site: elsewhere.choose(&mut r).unwrap(),
            attack: ev.attack,
        };
        out.push(IncidentCaption {
            text: self.site_photograph(&mut r, &other_site),
            incident: label(4),
        });
        let when = if r.random_bool(0.5) { ev.day } else { next };
        out.push(IncidentCaption {
            text: self.write(&mut r, &funeral, &ev.spot, when, vec![]),
            incident: label(3),
        });
        out
    }

    /// The captions of events `0..events`, in order.
    pub fn items(&self, events: u64) -> impl Iterator<Item = IncidentCaption> + '_ {
        (0..events).flat_map(|e| self.event_captions(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_with_distractors_of_their_own() {
        let g = Gazetteer::bundled();
        let c = IncidentCorpus::new(&g, 3);
        let a: Vec<_> = c.items(20).collect();
        assert_eq!(a, c.items(20).collect::<Vec<_>>());
        for e in 0..20 {
            let photos = a.iter().filter(|x| x.incident == 5 * e).count();
            assert!((2..=5).contains(&photos));
            for k in 1..5 {
                assert_eq!(a.iter().filter(|x| x.incident == 5 * e + k).count(), 1);
            }
        }
        assert!(a.iter().any(|x| x.text.contains("funeral")));
    }
}
