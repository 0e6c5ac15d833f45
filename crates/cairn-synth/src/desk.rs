//! The house styles of wire desks: where the date stands and how it is written, the
//! dateline, and the credit line. The agency is always the fictional one
//! ([`crate::AGENCY`]), so only the shape is borrowed from real desks.

use crate::AGENCY;
use crate::places::Spot;

/// A desk's style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Desk {
    /// `in Place, Country March 3, 2017. SAMPLE WIRE/Name`
    Reuters,
    /// `in Place, Country, Friday, March 3, 2017. (Sample Wire Photo/Name)`, months
    /// abbreviated in the AP way.
    Ap,
    /// `in Place, Country, on March 3, 2017. (Photo by Name / Sample Wire)`
    Afp,
    /// `PLACE, COUNTRY - MARCH 03: ... on March 3, 2017 in Place, Country. (Photo by
    /// Name/Sample Wire)`
    Getty,
}

impl Desk {
    pub(crate) const ALL: &'static [Desk] = &[Desk::Reuters, Desk::Ap, Desk::Afp, Desk::Getty];
}

/// A calendar date.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Day {
    pub(crate) year: i32,
    /// 1 to 12.
    pub(crate) month: u32,
    pub(crate) day: u32,
}

const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// AP style: months of more than five letters abbreviated, `Sept.` for September.
const AP_MONTHS: &[&str] = &[
    "Jan.", "Feb.", "March", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.",
    "Dec.",
];

const WEEKDAYS: &[&str] = &[
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

impl Day {
    fn month_name(self) -> &'static str {
        MONTHS[self.month as usize - 1]
    }

    /// The day of the week (Sakamoto's method for the Gregorian calendar).
    fn weekday(self) -> &'static str {
        const T: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
        let y = if self.month < 3 {
            self.year - 1
        } else {
            self.year
        };
        let w = (y + y / 4 - y / 100 + y / 400 + T[self.month as usize - 1] + self.day as i32)
            .rem_euclid(7);
        WEEKDAYS[w as usize]
    }
}

/// What a desk writes around the scene.
pub(crate) struct Story<'a> {
    /// Subject, verb and the rest of the scene, with its occasion.
    pub(crate) scene: &'a str,
    pub(crate) spot: &'a Spot,
    pub(crate) day: Day,
    /// Sentences after the first (a toll, background), each ending with a full stop.
    pub(crate) more: &'a [String],
    pub(crate) photographer: &'a str,
}

impl Desk {
    /// The caption as this desk would file it.
    pub(crate) fn write(self, s: &Story) -> String {
        let (place, area, d) = (s.spot.name, s.spot.area, s.day);
        let month = d.month_name();
        let mut out = match self {
            Desk::Reuters => format!(
                "{} in {place}, {area} {month} {}, {}.",
                s.scene, d.day, d.year
            ),
            Desk::Ap => format!(
                "{} in {place}, {area}, {}, {} {}, {}.",
                s.scene,
                d.weekday(),
                AP_MONTHS[d.month as usize - 1],
                d.day,
                d.year
            ),
            Desk::Afp => format!(
                "{} in {place}, {area}, on {month} {}, {}.",
                s.scene, d.day, d.year
            ),
            Desk::Getty => format!(
                "{}, {} - {} {:02}: {} on {month} {}, {} in {place}, {area}.",
                place.to_uppercase(),
                area.to_uppercase(),
                month.to_uppercase(),
                d.day,
                s.scene,
                d.day,
                d.year
            ),
        };
        for m in s.more {
            out.push(' ');
            out.push_str(m);
        }
        let who = s.photographer;
        match self {
            Desk::Reuters => out.push_str(&format!(" {}/{who}", AGENCY.to_uppercase())),
            Desk::Ap => out.push_str(&format!(" ({AGENCY} Photo/{who})")),
            Desk::Afp => out.push_str(&format!(" (Photo by {who} / {AGENCY})")),
            Desk::Getty => out.push_str(&format!(" (Photo by {who}/{AGENCY})")),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekdays_are_the_calendar_s() {
        let d = |year, month, day| Day { year, month, day }.weekday();
        assert_eq!(d(2016, 11, 24), "Thursday");
        assert_eq!(d(2011, 3, 15), "Tuesday");
        assert_eq!(d(2024, 2, 29), "Thursday");
        assert_eq!(d(2000, 1, 1), "Saturday");
    }

    #[test]
    fn each_desk_has_its_shape() {
        let spot = Spot {
            name: "Raqqa",
            area: "Syria",
        };
        let more = ["Two people were killed, a local official said.".to_string()];
        let s = Story {
            scene: "A man walks past a damaged building",
            spot: &spot,
            day: Day {
                year: 2017,
                month: 9,
                day: 4,
            },
            more: &more,
            photographer: "Rami Haddad",
        };
        assert_eq!(
            Desk::Reuters.write(&s),
            "A man walks past a damaged building in Raqqa, Syria September 4, 2017. Two people were killed, a local official said. SAMPLE WIRE/Rami Haddad"
        );
        assert!(
            Desk::Ap
                .write(&s)
                .contains("in Raqqa, Syria, Monday, Sept. 4, 2017.")
        );
        assert!(
            Desk::Afp
                .write(&s)
                .ends_with("on September 4, 2017. Two people were killed, a local official said. (Photo by Rami Haddad / Sample Wire)")
        );
        assert!(
            Desk::Getty
                .write(&s)
                .starts_with("RAQQA, SYRIA - SEPTEMBER 04: A man walks past a damaged building on September 4, 2017 in Raqqa, Syria.")
        );
    }
}
