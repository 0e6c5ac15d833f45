//! The words of a generated scene: who does what, and on what occasion. A subject
//! carries its number and a verb both its forms, so the sentence always agrees; each
//! scene names the events it can follow and the subjects that can act in it, so a
//! scene never lands in an occasion it does not fit.

/// Grammatical number of a subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Number {
    One,
    Many,
}

/// A subject of a scene.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Subject {
    pub(crate) text: &'static str,
    pub(crate) number: Number,
}

const fn one(text: &'static str) -> Subject {
    Subject {
        text,
        number: Number::One,
    }
}

const fn many(text: &'static str) -> Subject {
    Subject {
        text,
        number: Number::Many,
    }
}

const MAN: Subject = one("A man");
const WOMAN: Subject = one("A woman");
const BOY: Subject = one("A boy");
const GIRL: Subject = one("A girl");
const ELDER: Subject = one("An elderly man");
const VENDOR: Subject = one("A vendor");
const FIGHTER: Subject = one("A fighter");
const MEDIC: Subject = one("A medic");
const RESCUER: Subject = one("A civil defence worker");
const RESIDENTS: Subject = many("Residents");
const CHILDREN: Subject = many("Children");
const FAMILIES: Subject = many("Displaced families");
const RESCUERS: Subject = many("Civil defence workers");
const RESCUE_WORKERS: Subject = many("Rescue workers");
const PROTESTERS: Subject = many("Protesters");
const MEDICS: Subject = many("Medics");
const VOLUNTEERS: Subject = many("Volunteers");
const FIGHTERS: Subject = many("Fighters");

/// Every subject the generator uses (the agreement test reads them).
#[cfg(test)]
pub(crate) const SUBJECTS: &[Subject] = &[
    MAN,
    WOMAN,
    BOY,
    GIRL,
    ELDER,
    VENDOR,
    FIGHTER,
    MEDIC,
    RESCUER,
    RESIDENTS,
    CHILDREN,
    FAMILIES,
    RESCUERS,
    RESCUE_WORKERS,
    PROTESTERS,
    MEDICS,
    VOLUNTEERS,
    FIGHTERS,
];

/// The occasion of a scene; `Calm` is daily life with no event named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    Calm,
    Shelling,
    Airstrike,
    CarBomb,
    Clashes,
    Protest,
}

impl Event {
    /// Drawn with these weights: daily life as often as all the violence together.
    pub(crate) const WEIGHTED: &'static [Event] = &[
        Event::Calm,
        Event::Calm,
        Event::Calm,
        Event::Calm,
        Event::Shelling,
        Event::Airstrike,
        Event::CarBomb,
        Event::Clashes,
        Event::Protest,
    ];

    /// How the caption names the event (empty for daily life).
    pub(crate) fn phrase(self) -> &'static str {
        match self {
            Event::Calm => "",
            Event::Shelling => "following reported shelling",
            Event::Airstrike => "after what activists said were airstrikes",
            Event::CarBomb => "after a car bomb explosion",
            Event::Clashes => "after clashes between rival groups",
            Event::Protest => "during a protest against rising prices",
        }
    }

    /// Whether people are killed in it, so a toll may follow.
    pub(crate) fn kills(self) -> bool {
        !matches!(self, Event::Calm | Event::Protest)
    }
}

/// A verb in its two present-tense forms.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Verb {
    pub(crate) many: &'static str,
    pub(crate) one: &'static str,
}

impl Verb {
    /// The form that agrees with a subject of `number`.
    pub(crate) fn form(self, number: Number) -> &'static str {
        match number {
            Number::One => self.one,
            Number::Many => self.many,
        }
    }
}

const fn verb(many: &'static str, one: &'static str) -> Verb {
    Verb { many, one }
}

/// What someone does in a photograph, who may do it, and on which occasions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scene {
    pub(crate) verb: Verb,
    pub(crate) rest: &'static str,
    pub(crate) subjects: &'static [Subject],
    pub(crate) events: &'static [Event],
}

use Event::{Airstrike, Calm, CarBomb, Clashes, Protest, Shelling};

const AFTERMATH: &[Event] = &[Shelling, Airstrike, CarBomb];
const VIOLENCE: &[Event] = &[Shelling, Airstrike, CarBomb, Clashes];

/// Every scene the generator uses.
pub(crate) const SCENES: &[Scene] = &[
    Scene {
        verb: verb("walk", "walks"),
        rest: "past a damaged building",
        subjects: &[MAN, WOMAN, BOY, GIRL, ELDER, RESIDENTS, CHILDREN],
        events: &[Calm, Shelling, Airstrike, CarBomb, Clashes],
    },
    Scene {
        verb: verb("inspect", "inspects"),
        rest: "the rubble of a house",
        subjects: &[MAN, WOMAN, ELDER, RESIDENTS, CHILDREN, RESCUER, RESCUERS],
        events: AFTERMATH,
    },
    Scene {
        verb: verb("carry", "carries"),
        rest: "belongings through a street",
        subjects: &[MAN, WOMAN, RESIDENTS, FAMILIES],
        events: &[Calm, Shelling, Airstrike, Clashes],
    },
    Scene {
        verb: verb("queue", "queues"),
        rest: "for bread outside a bakery",
        subjects: &[MAN, WOMAN, ELDER, RESIDENTS, CHILDREN],
        events: &[Calm],
    },
    Scene {
        verb: verb("gather", "gathers"),
        rest: "at the site of an explosion",
        subjects: &[RESIDENTS, RESCUE_WORKERS, RESCUERS],
        events: &[Airstrike, CarBomb],
    },
    Scene {
        verb: verb("ride", "rides"),
        rest: "a bicycle along a destroyed road",
        subjects: &[MAN, BOY, GIRL],
        events: &[Calm, Clashes],
    },
    Scene {
        verb: verb("sell", "sells"),
        rest: "vegetables at a market",
        subjects: &[VENDOR, MAN, WOMAN],
        events: &[Calm],
    },
    Scene {
        verb: verb("search", "searches"),
        rest: "for survivors under debris",
        subjects: &[RESCUE_WORKERS, RESCUERS, RESCUER, RESIDENTS],
        events: AFTERMATH,
    },
    Scene {
        verb: verb("wait", "waits"),
        rest: "at a checkpoint",
        subjects: &[MAN, WOMAN, RESIDENTS, FAMILIES],
        events: &[Calm, Clashes],
    },
    Scene {
        verb: verb("play", "plays"),
        rest: "football in a courtyard",
        subjects: &[BOY, CHILDREN],
        events: &[Calm],
    },
    Scene {
        verb: verb("attend", "attends"),
        rest: "a funeral",
        subjects: &[MAN, WOMAN, RESIDENTS, FIGHTERS],
        events: VIOLENCE,
    },
    Scene {
        verb: verb("pray", "prays"),
        rest: "at a mosque",
        subjects: &[MAN, ELDER, RESIDENTS],
        events: &[Calm],
    },
    Scene {
        verb: verb("fill", "fills"),
        rest: "water containers",
        subjects: &[WOMAN, BOY, GIRL, CHILDREN, FAMILIES],
        events: &[Calm],
    },
    Scene {
        verb: verb("hold", "holds"),
        rest: "up placards",
        subjects: &[PROTESTERS, MAN, WOMAN],
        events: &[Protest],
    },
    Scene {
        verb: verb("chant", "chants"),
        rest: "slogans",
        subjects: &[PROTESTERS, RESIDENTS],
        events: &[Protest],
    },
    Scene {
        verb: verb("stand", "stands"),
        rest: "near a burnt-out car",
        subjects: &[MAN, BOY, FIGHTER, FIGHTERS, RESIDENTS],
        events: &[CarBomb, Clashes],
    },
    Scene {
        verb: verb("treat", "treats"),
        rest: "a wounded man at a field hospital",
        subjects: &[MEDIC, MEDICS],
        events: VIOLENCE,
    },
    Scene {
        verb: verb("take", "takes"),
        rest: "up positions on a front line",
        subjects: &[FIGHTER, FIGHTERS],
        events: &[Clashes],
    },
    Scene {
        verb: verb("hand", "hands"),
        rest: "out food parcels",
        subjects: &[VOLUNTEERS],
        events: &[Calm],
    },
    Scene {
        verb: verb("clear", "clears"),
        rest: "rubble from a street",
        subjects: &[VOLUNTEERS, RESCUERS, RESCUER],
        events: AFTERMATH,
    },
];

/// The scenes that fit `event`.
pub(crate) fn scenes_for(event: Event) -> Vec<&'static Scene> {
    SCENES
        .iter()
        .filter(|s| s.events.contains(&event))
        .collect()
}

/// Who reports a toll, as wire captions attribute one.
pub(crate) const TOLL_SOURCES: &[&str] = &[
    "according to local medics",
    "according to the civil defence",
    "a local official said",
    "according to a war monitor",
];

/// Numbers of dead: words as a desk spells small numbers, digits from 10 up.
pub(crate) const NUMBERS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "10", "12", "15", "21",
];

/// Background sentences that fit any occasion.
pub(crate) const BACKGROUND: &[&str] = &[
    "The conflict has displaced millions of people since it began.",
    "Aid groups say food prices in the area have tripled this year.",
    "Residents say electricity is available for only a few hours a day.",
    "The area has changed hands several times during the war.",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_scenes_and_every_scene_subjects() {
        for e in Event::WEIGHTED {
            assert!(!scenes_for(*e).is_empty(), "{e:?}");
        }
        for s in SCENES {
            assert!(!s.subjects.is_empty() && !s.events.is_empty(), "{}", s.rest);
        }
    }

    #[test]
    fn the_singular_form_is_the_third_person() {
        for s in SCENES {
            assert!(s.verb.one.ends_with('s') && !s.verb.many.ends_with('s'));
            assert_eq!(s.verb.form(Number::One), s.verb.one);
        }
    }
}
