//! Incidents from the links, with a guard against chaining: two parts join only when
//! every member of one agrees in date, place, event and site with every member of the
//! other, so a chain of links cannot carry an incident across days, towns or sites.
//!
//! Within each connected part of the link graph, parts are joined greedily, the pair
//! most strongly tied first (most links naming a shared site or person, then most
//! links): a photograph that names no site joins the incident most of whose photographs
//! it links to, not the first one met.

use std::collections::BTreeMap;

/// A link between two items, and whether its evidence is specific to the scene.
#[derive(Debug, Clone, Copy)]
pub struct Edge {
    /// One item.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// A shared site or person.
    pub specific: bool,
}

fn root(up: &mut [usize], mut x: usize) -> usize {
    while up[x] != x {
        up[x] = up[up[x]];
        x = up[x];
    }
    x
}

/// Connected parts of the link graph, each sorted, in order of their first member.
fn components(n: usize, edges: &[Edge]) -> Vec<Vec<usize>> {
    let mut up: Vec<usize> = (0..n).collect();
    for e in edges {
        let (ra, rb) = (root(&mut up, e.a), root(&mut up, e.b));
        up[ra.max(rb)] = ra.min(rb);
    }
    let mut parts: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for x in 0..n {
        let r = root(&mut up, x);
        parts.entry(r).or_default().push(x);
    }
    parts.into_values().collect()
}

/// Parts of `0..n`, each sorted, in order of their first member.
pub fn guarded(n: usize, edges: &[Edge], agree: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut by_item: Vec<Vec<&Edge>> = vec![Vec::new(); n];
    for e in edges {
        by_item[e.a].push(e);
    }
    for comp in components(n, edges) {
        let inner: Vec<&Edge> = comp
            .iter()
            .flat_map(|&x| by_item[x].iter().copied())
            .collect();
        out.extend(join(&comp, &inner, &agree));
    }
    out.sort_by_key(|p| p[0]);
    out
}

/// Greedy joining within one connected component.
fn join(comp: &[usize], edges: &[&Edge], agree: &impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut part: BTreeMap<usize, usize> = comp.iter().map(|&x| (x, x)).collect();
    let mut members: BTreeMap<usize, Vec<usize>> = comp.iter().map(|&x| (x, vec![x])).collect();
    let mut refused = std::collections::BTreeSet::new();
    loop {
        // Ties between parts: (specific links, links), keyed by the two parts' ids.
        let mut ties: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
        for e in edges {
            let (pa, pb) = (part[&e.a], part[&e.b]);
            if pa != pb && !refused.contains(&(pa.min(pb), pa.max(pb))) {
                let t = ties.entry((pa.min(pb), pa.max(pb))).or_default();
                t.0 += usize::from(e.specific);
                t.1 += 1;
            }
        }
        let Some((&(p, q), _)) = ties.iter().max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(x.0))) else {
            break;
        };
        let fits = members[&p]
            .iter()
            .all(|&x| members[&q].iter().all(|&y| agree(x, y)));
        if !fits {
            refused.insert((p, q));
            continue;
        }
        let moved = members.remove(&q).unwrap_or_default();
        for &m in &moved {
            part.insert(m, p);
        }
        let keep = members.entry(p).or_default();
        keep.extend(moved);
        keep.sort_unstable();
    }
    members.into_values().collect()
}
