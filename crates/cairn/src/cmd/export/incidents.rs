//! `cairn export --incidents`: the stored incidents of two or more photographs, read a
//! page at a time and written as they are read.

use std::path::Path;

use anyhow::{Context, Result};
use cairn_export::{Format, IncidentCaption, IncidentExporter};
use cairn_gazetteer::Gazetteer;
use cairn_store::Archive;
use serde_json::Value;

use super::target::Target;

/// How many incidents one store read holds.
const PAGE: usize = 256;

/// Writes the incidents of `a` in `format` to `out` (stdout when absent).
pub(super) fn export(a: &Archive, format: Format, out: Option<&Path>) -> Result<()> {
    let g = Gazetteer::bundled();
    let target = Target::of(out)?;
    let name = match (&target, out) {
        (Target::Stdout, _) | (_, None) => "standard output".to_string(),
        (_, Some(path)) => path.display().to_string(),
    };
    let n = target.write(|w| {
        let mut e = IncidentExporter::new(format, w, &g, &name)?;
        let mut after = i64::MIN;
        loop {
            let page = a.incidents_after(2, after, PAGE)?;
            let Some(last) = page.last() else { break };
            after = last.id;
            for s in &page {
                let v: Value = serde_json::from_str(&s.json).with_context(|| {
                    format!("incident {} is stored as JSON that does not read", s.id)
                })?;
                e.write(&v, &captions(a, &v)?)?;
            }
        }
        Ok(e.finish()?)
    })?;
    match target {
        Target::Stdout => eprintln!("exported {n} incidents"),
        _ => eprintln!("exported {n} incidents to {name}"),
    }
    Ok(())
}

/// The photographs of an incident, in its order; a caption gone since the last
/// linking is left out.
fn captions(a: &Archive, incident: &Value) -> Result<Vec<IncidentCaption>> {
    let ids = incident["captions"].as_array().into_iter().flatten();
    let mut out = Vec::new();
    for id in ids.filter_map(Value::as_i64) {
        let Some(c) = a.caption(id)? else { continue };
        let credit = c.record.as_ref().and_then(|r| r.credit.as_ref());
        out.push(IncidentCaption {
            id,
            text: c.text,
            agency: credit.and_then(|c| c.agency.clone().or_else(|| c.distributor.clone())),
        });
    }
    Ok(out)
}
