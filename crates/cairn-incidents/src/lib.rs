//! Incidents: distinct photographs (one record per caption cluster) that show one moment
//! in one place, grouped and explained link by link. No IO; the result depends only on
//! the set of items, not on their order.

mod block;
pub mod evidence;
mod group;
pub mod pair;
pub mod toll;

use std::collections::BTreeSet;

use cairn_model::{Place, Precision, Record};
use serde::Serialize;

use evidence::Evidence;
pub use pair::Reason;
pub use toll::{Figure, Toll};

/// One distinct photograph: its caption id and record.
#[derive(Debug, Clone)]
pub struct Item {
    /// The caption id.
    pub id: i64,
    /// Its record (with any correction laid over it).
    pub record: Record,
}

/// A link between two captions, with its reasons.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The smaller caption id.
    pub a: i64,
    /// The larger caption id.
    pub b: i64,
    /// Why they are one incident.
    pub reasons: Vec<Reason>,
}

/// One caption's claims.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Claim {
    /// The caption id.
    pub caption: i64,
    /// People killed, as claimed.
    pub killed: Option<Figure>,
    /// People injured, as claimed.
    pub injured: Option<Figure>,
    /// To whom the caption attributes its figures.
    pub sources: Vec<String>,
    /// The agency that carried it.
    pub agency: Option<String>,
}

/// How well an incident is sourced (after Airwars' grading).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// One agency and at most one claim source.
    Single,
    /// Several agencies or claim sources that agree.
    Several,
    /// Claims that contradict one another.
    Contested,
}

/// An incident's date: the day, or the month, and the span its captions give.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct When {
    /// The earliest date value.
    pub from: String,
    /// The latest.
    pub to: String,
    /// The finest precision among its captions.
    pub precision: Precision,
}

/// An incident of two or more photographs, or one alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Incident {
    /// Its id: the smallest caption id among its photographs.
    pub id: i64,
    /// Caption ids, ascending.
    pub captions: Vec<i64>,
    /// When.
    pub date: Option<When>,
    /// The most precise location its captions give.
    pub location: Option<Place>,
    /// ACLED event types its captions name, sorted.
    pub event_types: Vec<String>,
    /// Each caption's claims, for those that give a toll or a source.
    pub claims: Vec<Claim>,
    /// Killed across claims.
    pub killed: Option<Toll>,
    /// Injured across claims.
    pub injured: Option<Toll>,
    /// Some toll is contested.
    pub contested: bool,
    /// Distinct agencies that carried its photographs.
    pub agencies: usize,
    /// Distinct claim sources its captions cite.
    pub sources: usize,
    /// Single source, several, or contested.
    pub grade: Grade,
    /// The links that made it, ascending.
    pub links: Vec<Link>,
}

/// Groups items into incidents (singletons included), in ascending id order.
pub fn incidents(items: &[Item]) -> Vec<Incident> {
    let mut sorted: Vec<&Item> = items.iter().collect();
    sorted.sort_by_key(|i| i.id);
    sorted.dedup_by_key(|i| i.id);
    let records: Vec<&Record> = sorted.iter().map(|i| &i.record).collect();
    let evidence: Vec<Evidence> = records.iter().map(|r| Evidence::of(r)).collect();
    let links: Vec<(usize, usize, Vec<Reason>)> = block::candidates(&records)
        .into_iter()
        .filter_map(|(a, b)| {
            let reasons = pair::link((records[a], &evidence[a]), (records[b], &evidence[b]))?;
            Some((a, b, reasons))
        })
        .collect();
    let edges: Vec<group::Edge> = links
        .iter()
        .map(|l| group::Edge {
            a: l.0,
            b: l.1,
            specific: l
                .2
                .iter()
                .any(|r| matches!(r, Reason::SameFacility | Reason::SamePerson)),
        })
        .collect();
    let agree =
        |x: usize, y: usize| pair::agree((records[x], &evidence[x]), (records[y], &evidence[y]));
    let parts = group::guarded(records.len(), &edges, agree);
    // Each link goes to the part holding both its ends, found through each item's part.
    let mut part_of = vec![0; records.len()];
    for (k, part) in parts.iter().enumerate() {
        for &i in part {
            part_of[i] = k;
        }
    }
    let mut inside: Vec<Vec<Link>> = vec![Vec::new(); parts.len()];
    for (a, b, reasons) in links {
        if part_of[a] == part_of[b] {
            inside[part_of[a]].push(Link {
                a: sorted[a].id,
                b: sorted[b].id,
                reasons,
            });
        }
    }
    parts
        .iter()
        .zip(inside)
        .map(|(part, links)| record(part.iter().map(|&i| sorted[i]).collect(), links))
        .collect()
}

fn when(items: &[&Item]) -> Option<When> {
    let dates: Vec<_> = items
        .iter()
        .filter_map(|i| i.record.date.as_ref())
        .collect();
    Some(When {
        from: dates.iter().map(|d| d.value.clone()).min()?,
        to: dates.iter().map(|d| d.value.clone()).max()?,
        precision: dates.iter().map(|d| d.precision).min()?,
    })
}

fn location(items: &[&Item]) -> Option<Place> {
    items
        .iter()
        .filter_map(|i| i.record.location.as_ref())
        .min_by_key(|p| (p.kind.specificity_rank(), std::cmp::Reverse(p.confidence)))
        .cloned()
}

fn claim(item: &Item) -> Claim {
    let r = &item.record;
    Claim {
        caption: item.id,
        killed: r.casualties.killed.as_ref().map(Figure::from),
        injured: r.casualties.injured.as_ref().map(Figure::from),
        sources: r.sources.clone(),
        agency: r.credit.as_ref().and_then(|c| c.agency.clone()),
    }
}

fn record(items: Vec<&Item>, mut links: Vec<Link>) -> Incident {
    links.sort_by_key(|l| (l.a, l.b));
    let claims: Vec<Claim> = items.iter().map(|i| claim(i)).collect();
    let killed = toll::toll(&claims.iter().filter_map(|c| c.killed).collect::<Vec<_>>());
    let injured = toll::toll(&claims.iter().filter_map(|c| c.injured).collect::<Vec<_>>());
    let contested = [killed, injured].iter().flatten().any(|t| t.contested);
    let agencies: BTreeSet<String> = claims
        .iter()
        .filter_map(|c| c.agency.as_ref().map(|a| a.to_lowercase()))
        .collect();
    let sources: BTreeSet<String> = claims
        .iter()
        .flat_map(|c| c.sources.iter().map(|s| s.to_lowercase()))
        .collect();
    let grade = if contested {
        Grade::Contested
    } else if agencies.len() > 1 || sources.len() > 1 {
        Grade::Several
    } else {
        Grade::Single
    };
    let event_types: BTreeSet<String> = items
        .iter()
        .flat_map(|i| i.record.event_types.iter().cloned())
        .collect();
    Incident {
        id: items[0].id,
        captions: items.iter().map(|i| i.id).collect(),
        date: when(&items),
        location: location(&items),
        event_types: event_types.into_iter().collect(),
        claims: claims
            .into_iter()
            .filter(|c| c.killed.is_some() || c.injured.is_some() || !c.sources.is_empty())
            .collect(),
        killed,
        injured,
        contested,
        agencies: agencies.len(),
        sources: sources.len(),
        grade,
        links,
    }
}
