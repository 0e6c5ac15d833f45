//! Incidents as connected parts of the link graph, with a guard against chaining: two
//! parts join only when every member of one agrees in date and place with every member
//! of the other, so a chain of links cannot carry an incident across days or a city.

use cairn_model::Record;

use crate::pair::agree;

/// Parts of `0..n` joined by `links` (taken in their order), each sorted, in order of
/// their first member.
pub fn guarded(records: &[&Record], links: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut part: Vec<usize> = (0..records.len()).collect();
    let mut members: Vec<Vec<usize>> = (0..records.len()).map(|i| vec![i]).collect();
    for &(a, b) in links {
        let (pa, pb) = (part[a], part[b]);
        if pa == pb {
            continue;
        }
        let fits = members[pa]
            .iter()
            .all(|&x| members[pb].iter().all(|&y| agree(records[x], records[y])));
        if !fits {
            continue;
        }
        let (keep, gone) = (pa.min(pb), pa.max(pb));
        let moved = std::mem::take(&mut members[gone]);
        for &m in &moved {
            part[m] = keep;
        }
        members[keep].extend(moved);
        members[keep].sort_unstable();
    }
    members.into_iter().filter(|m| !m.is_empty()).collect()
}
