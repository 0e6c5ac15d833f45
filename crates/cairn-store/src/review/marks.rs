//! A caption's review marks as the index keeps them, for the search's `review` filter
//! and facet: what people did (`verified`, `disputed`, `corrected`) and, for a caption
//! nobody verified yet, why it needs a look (`low_confidence`, `warnings`, `conflict`,
//! `open_dispute`, and `needs_review` beside any of them).

use cairn_model::{Confidence, Record};
use rusqlite::Connection;

use super::Review;
use crate::codec::Codec;

/// Marks of what people did.
pub const DONE_MARKS: [&str; 3] = ["verified", "disputed", "corrected"];
/// Why a caption needs review, as the queue counts it.
pub const REASONS: [&str; 4] = ["low_confidence", "warnings", "conflict", "open_dispute"];
/// The mark of every caption with at least one reason.
pub const NEEDS_REVIEW: &str = "needs_review";

/// The marks of caption `id`, shown as `record`; `variants` is how many texts it has.
pub(crate) fn marks_of(
    codec: &Codec,
    conn: &Connection,
    id: i64,
    record: Option<&Record>,
    variants: usize,
) -> rusqlite::Result<Vec<&'static str>> {
    let review = super::review_of(conn, id)?;
    // A correction settles what it corrects: only the extracted texts can disagree.
    let conflict = !review.verified
        && variants > 1
        && review.corrected.is_empty()
        && conflicting(codec, conn, id)?;
    Ok(marks(&review, record, conflict))
}

/// The marks of a caption just made from one text: nobody reviewed it yet.
pub(crate) fn fresh_marks(record: Option<&Record>) -> Vec<&'static str> {
    marks(&Review::default(), record, false)
}

/// The marks of a caption with `review`, shown as `record`, whose texts disagree when
/// `conflict`.
fn marks(review: &Review, record: Option<&Record>, conflict: bool) -> Vec<&'static str> {
    let mut marks = Vec::new();
    if review.verified {
        marks.push("verified");
    }
    if review.disputed {
        marks.push("disputed");
    }
    if !review.corrected.is_empty() {
        marks.push("corrected");
    }
    if review.verified {
        return marks;
    }
    let low = record
        .and_then(|r| r.location.as_ref())
        .is_some_and(|l| l.confidence == Some(Confidence::Low));
    let warned = record.is_some_and(|r| !r.warnings.is_empty());
    if low || warned || conflict || review.disputed {
        marks.push(NEEDS_REVIEW);
    }
    for (reason, yes) in [
        ("low_confidence", low),
        ("warnings", warned),
        ("conflict", conflict),
        ("open_dispute", review.disputed),
    ] {
        if yes {
            marks.push(reason);
        }
    }
    marks
}

/// Whether the records of a caption's texts make different claims: another toll,
/// date or scene.
fn conflicting(codec: &Codec, conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    let mut stmt = conn.prepare_cached("SELECT record FROM variant WHERE caption_id = ?1")?;
    let mut rows = stmt.query([id])?;
    let mut claims: Vec<Claims> = Vec::new();
    while let Some(row) = rows.next()? {
        if let Ok(Some(r)) = codec.decode(conn, row.get_ref(0)?) {
            claims.push(Claims::of(&r));
        }
    }
    Ok(claims
        .iter()
        .enumerate()
        .any(|(i, a)| claims[i + 1..].iter().any(|b| a.differs(b))))
}

/// What a text claims that another copy of the photograph's caption could contradict.
#[derive(Debug, Default, PartialEq)]
struct Claims {
    killed: Option<u32>,
    injured: Option<u32>,
    date: Option<String>,
    place: Option<String>,
}

impl Claims {
    fn of(r: &Record) -> Self {
        Claims {
            killed: r.casualties.killed.as_ref().map(|c| c.low),
            injured: r.casualties.injured.as_ref().map(|c| c.low),
            date: r.date.as_ref().map(|d| d.value.clone()),
            place: r
                .location
                .as_ref()
                .map(|l| l.gazetteer_id.clone().unwrap_or_else(|| l.name.clone())),
        }
    }

    /// Two values given and unequal, in any of the claims; a claim one text leaves out
    /// is no contradiction.
    fn differs(&self, o: &Claims) -> bool {
        fn both<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
            matches!((a, b), (Some(a), Some(b)) if a != b)
        }
        both(&self.killed, &o.killed)
            || both(&self.injured, &o.injured)
            || both(&self.date, &o.date)
            || both(&self.place, &o.place)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verified_caption_leaves_the_queue_and_a_disputed_one_joins_it() {
        let r = Record {
            warnings: vec!["no date".into()],
            ..Default::default()
        };
        assert_eq!(fresh_marks(Some(&r)), ["needs_review", "warnings"]);
        assert!(fresh_marks(Some(&Record::default())).is_empty());
        let verified = Review {
            verified: true,
            corrected: vec!["date".into()],
            ..Default::default()
        };
        assert_eq!(marks(&verified, Some(&r), true), ["verified", "corrected"]);
        let disputed = Review {
            disputed: true,
            ..Default::default()
        };
        assert_eq!(
            marks(&disputed, None, true),
            ["disputed", "needs_review", "conflict", "open_dispute"]
        );
    }

    #[test]
    fn a_claim_left_out_is_no_contradiction_but_another_value_is() {
        let a = Claims {
            killed: Some(3),
            date: Some("2016-11-24".into()),
            ..Default::default()
        };
        let silent = Claims {
            date: Some("2016-11-24".into()),
            ..Default::default()
        };
        let other = Claims {
            killed: Some(5),
            ..Default::default()
        };
        assert!(!a.differs(&silent));
        assert!(a.differs(&other));
        assert!(!silent.differs(&other));
    }
}
