//! Records extracted again by the current extractor, a chunk of texts at a time. Only
//! the extracted records change: people's corrections are kept apart and laid over the
//! new records as over the old.

use std::collections::BTreeMap;

use cairn_model::Record;
use rusqlite::params;
use serde::Serialize;
use serde_json::Value;

use crate::codec::Codec;
use crate::{ArchiveWriter, Result};

/// Texts read, extracted and written back at once.
const CHUNK: usize = 1024;

/// What a re-extraction changed.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Reextracted {
    /// Records extracted again.
    pub records: u64,
    /// Records that came out different.
    pub changed: u64,
    /// Texts left as they were: some source of theirs gave fields beside the text (an
    /// image's IPTC fields, a JSON Lines date field) that the text alone does not hold.
    pub kept: u64,
    /// Per record field, the records whose value of it changed.
    pub fields: BTreeMap<String, u64>,
}

/// A variant whose source gave fields of its own is not extracted from its text alone.
const VARIANTS: &str = "SELECT v.id, v.text, v.record,
        EXISTS (SELECT 1 FROM occurrence o JOIN source s ON s.id = o.source_id
                WHERE o.variant_id = v.id
                AND (s.kind = 'image' OR (s.kind = 'jsonl' AND s.origin LIKE '%date_field%')))
     FROM variant v WHERE v.id > ?1 ORDER BY v.id LIMIT ?2";

impl ArchiveWriter {
    /// Extracts every caption text again with `extract` (given a chunk of texts, it
    /// returns their records in order; the caller may run it in parallel), stores the
    /// records that changed, and brings the search index up to date.
    pub fn reextract(
        &mut self,
        mut extract: impl FnMut(&[String]) -> Vec<Record>,
    ) -> Result<Reextracted> {
        let mut report = Reextracted::default();
        let mut after = 0i64;
        loop {
            let (ids, texts, old) = self.chunk(after, &mut report)?;
            let Some(&last) = ids.last() else { break };
            after = last;
            let new = extract(&texts);
            self.write_chunk(&ids, &old, &new, &mut report)?;
        }
        self.sync_index()?;
        Ok(report)
    }

    /// The next texts after variant `after` to extract: ids, texts and old records
    /// (the chunk's last id even when every text in it is kept).
    #[allow(clippy::type_complexity)]
    fn chunk(
        &self,
        after: i64,
        report: &mut Reextracted,
    ) -> Result<(Vec<i64>, Vec<String>, Vec<Option<Record>>)> {
        let err = self.db_err();
        let codec = &self.archive.codec;
        let mut stmt = self.conn.prepare_cached(VARIANTS).map_err(err)?;
        let mut rows = stmt.query(params![after, CHUNK as i64]).map_err(err)?;
        let (mut ids, mut texts, mut old) = (Vec::new(), Vec::new(), Vec::new());
        let mut last = None;
        while let Some(r) = rows.next().map_err(err)? {
            let id: i64 = r.get(0).map_err(err)?;
            last = Some(id);
            if r.get::<_, bool>(3).map_err(err)? {
                report.kept += 1;
                continue;
            }
            ids.push(id);
            texts.push(r.get(1).map_err(err)?);
            old.push(
                codec
                    .decode(&self.conn, r.get_ref(2).map_err(err)?)
                    .unwrap_or_default(),
            );
        }
        // A chunk of kept texts only still moves the reading on.
        if ids.is_empty() {
            if let Some(last) = last {
                return Ok((vec![last], Vec::new(), Vec::new()));
            }
        }
        Ok((ids, texts, old))
    }

    /// Stores the records of a chunk that changed, in one batch that marks their
    /// captions changed for the index.
    fn write_chunk(
        &mut self,
        ids: &[i64],
        old: &[Option<Record>],
        new: &[Record],
        report: &mut Reextracted,
    ) -> Result<()> {
        let path = self.archive.db_path.clone();
        let err = crate::db_err(&path);
        let dict = self.archive.codec.current();
        let tx = self.conn.transaction().map_err(err)?;
        let mut seq = None;
        for ((id, old), new) in ids.iter().zip(old).zip(new) {
            report.records += 1;
            let changed = changed_fields(old.as_ref(), new);
            if changed.is_empty() {
                continue;
            }
            report.changed += 1;
            for f in changed {
                *report.fields.entry(f).or_default() += 1;
            }
            let seq = match seq {
                Some(s) => s,
                None => {
                    let now = jiff::Timestamp::now().to_string();
                    tx.execute("INSERT INTO batch (started_at) VALUES (?1)", [&now])
                        .map_err(err)?;
                    *seq.insert(tx.last_insert_rowid())
                }
            };
            let stored = Codec::encode(new, dict.as_deref());
            tx.execute(
                "UPDATE variant SET record = ?1 WHERE id = ?2",
                params![stored, id],
            )
            .map_err(err)?;
            tx.execute(
                "UPDATE caption SET seq = ?1 WHERE canonical_variant = ?2",
                params![seq, id],
            )
            .map_err(err)?;
        }
        tx.commit().map_err(err)
    }
}

/// The top-level record fields whose values differ between two records.
fn changed_fields(old: Option<&Record>, new: &Record) -> Vec<String> {
    let new = serde_json::to_value(new).unwrap_or_default();
    let old = old
        .and_then(|o| serde_json::to_value(o).ok())
        .unwrap_or(Value::Null);
    let Value::Object(fields) = new else {
        return Vec::new();
    };
    fields
        .into_iter()
        .filter(|(k, v)| old.get(k) != Some(v))
        .map(|(k, _)| k)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_fields_that_differ_are_counted() {
        let a = Record {
            text: "Smoke over the harbour.".into(),
            persons: vec!["A Person".into()],
            ..Record::default()
        };
        let mut b = a.clone();
        assert!(changed_fields(Some(&a), &b).is_empty());
        b.persons.clear();
        b.lang = Some("en".into());
        assert_eq!(changed_fields(Some(&a), &b), vec!["lang", "persons"]);
        assert!(changed_fields(None, &b).contains(&"text".to_string()));
    }
}
