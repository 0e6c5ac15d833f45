//! `cairn import`: builds or extends an archive from what a cluster job computed (the
//! Spark job in `cairn-py/spark`): Parquet directories `sources`, `occurrences`,
//! `records` and `clusters` under one directory.
//!
//! Nothing is extracted or clustered again: the records and the clusters are the
//! job's. Every source's bytes are checked against its sha256 and every span against
//! its text length before anything is stored, batch by batch, each batch one
//! transaction (an import stopped half way leaves whole batches, and a re-run skips
//! them). A text already in the archive keeps its caption; the job's clusters group
//! the new texts among themselves (they are not matched against the archive's earlier
//! captions).

use std::collections::VecDeque;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, RecordBatch};
use cairn_model::{Record, SourceKind, Span};
use cairn_store::{ArchiveWriter, Clusterer, NewOccurrence, NewSource};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use rustc_hash::FxHashMap;

use crate::{Error, Event, Report, Result};

fn bad(path: &Path, message: impl Into<String>) -> Error {
    Error::Import {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// The Parquet files of one output table, in name order (the job writes them sorted).
fn parts(dir: &Path, table: &str) -> Result<Vec<PathBuf>> {
    let d = dir.join(table);
    let entries = std::fs::read_dir(&d).map_err(|e| bad(&d, format!("cannot read: {e}")))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    files.sort();
    Ok(files)
}

/// A column of a batch, by name and type, or an error naming the file.
struct Columns<'a> {
    batch: &'a RecordBatch,
    path: &'a Path,
}

impl<'a> Columns<'a> {
    fn get(&self, name: &str) -> Result<&'a dyn Array> {
        self.batch
            .column_by_name(name)
            .map(|c| c.as_ref())
            .ok_or_else(|| bad(self.path, format!("no column {name:?}")))
    }
    fn long(&self, name: &str) -> Result<&'a arrow_array::Int64Array> {
        let c = self.get(name)?;
        c.as_primitive_opt::<Int64Type>().ok_or_else(|| {
            bad(
                self.path,
                format!("column {name:?} is {}, not int64", c.data_type()),
            )
        })
    }
    fn text(&self, name: &str) -> Result<&'a arrow_array::StringArray> {
        let c = self.get(name)?;
        c.as_string_opt::<i32>().ok_or_else(|| {
            bad(
                self.path,
                format!("column {name:?} is {}, not string", c.data_type()),
            )
        })
    }
    fn bytes(&self, name: &str) -> Result<&'a arrow_array::BinaryArray> {
        let c = self.get(name)?;
        c.as_binary_opt::<i32>().ok_or_else(|| {
            bad(
                self.path,
                format!("column {name:?} is {}, not binary", c.data_type()),
            )
        })
    }
    fn flag(&self, name: &str) -> Result<&'a arrow_array::BooleanArray> {
        let c = self.get(name)?;
        c.as_boolean_opt().ok_or_else(|| {
            bad(
                self.path,
                format!("column {name:?} is {}, not boolean", c.data_type()),
            )
        })
    }
}

/// Rows of one table, read a batch at a time across its files, in order.
struct Rows<T> {
    files: VecDeque<PathBuf>,
    current: Option<(PathBuf, ParquetRecordBatchReader)>,
    buf: VecDeque<T>,
    convert: fn(&Columns<'_>) -> Result<Vec<T>>,
}

impl<T> Rows<T> {
    fn open(dir: &Path, table: &str, convert: fn(&Columns<'_>) -> Result<Vec<T>>) -> Result<Self> {
        Ok(Rows {
            files: parts(dir, table)?.into(),
            current: None,
            buf: VecDeque::new(),
            convert,
        })
    }

    fn next(&mut self) -> Result<Option<T>> {
        loop {
            if let Some(row) = self.buf.pop_front() {
                return Ok(Some(row));
            }
            if let Some((path, reader)) = &mut self.current {
                match reader.next() {
                    Some(batch) => {
                        let batch = batch.map_err(|e| bad(path, e.to_string()))?;
                        self.buf = (self.convert)(&Columns {
                            batch: &batch,
                            path,
                        })?
                        .into();
                        continue;
                    }
                    None => self.current = None,
                }
            }
            let Some(path) = self.files.pop_front() else {
                return Ok(None);
            };
            let file = File::open(&path).map_err(|e| bad(&path, format!("cannot open: {e}")))?;
            let reader = ParquetRecordBatchReaderBuilder::try_new(file)
                .and_then(|b| b.with_batch_size(1024).build())
                .map_err(|e| bad(&path, format!("not readable Parquet: {e}")))?;
            self.current = Some((path, reader));
        }
    }

    fn path(&self) -> PathBuf {
        self.current
            .as_ref()
            .map(|(p, _)| p.clone())
            .unwrap_or_default()
    }
}

struct SourceRow {
    order: (i64, i64),
    uri: String,
    sha256: String,
    kind: String,
    encoding: String,
    text_len: i64,
    warnings: String,
    origin: Option<String>,
    content: Vec<u8>,
}

fn source_rows(c: &Columns<'_>) -> Result<Vec<SourceRow>> {
    let (input, seq) = (c.long("input")?, c.long("seq")?);
    let (uri, sha, kind, enc) = (
        c.text("uri")?,
        c.text("sha256")?,
        c.text("kind")?,
        c.text("encoding")?,
    );
    let (len, warnings, origin, content) = (
        c.long("text_len")?,
        c.text("warnings")?,
        c.text("origin")?,
        c.bytes("content")?,
    );
    (0..c.batch.num_rows())
        .map(|i| {
            if uri.is_null(i) || sha.is_null(i) || content.is_null(i) {
                return Err(bad(
                    c.path,
                    format!("source row {i}: uri, sha256 or content is null"),
                ));
            }
            Ok(SourceRow {
                order: (input.value(i), seq.value(i)),
                uri: uri.value(i).to_string(),
                sha256: sha.value(i).to_string(),
                kind: kind.value(i).to_string(),
                encoding: enc.value(i).to_string(),
                text_len: len.value(i),
                warnings: warnings.value(i).to_string(),
                origin: (!origin.is_null(i)).then(|| origin.value(i).to_string()),
                content: content.value(i).to_vec(),
            })
        })
        .collect()
}

struct OccurrenceRow {
    order: (i64, i64),
    ordinal: i64,
    start: i64,
    end: i64,
    key: [u8; 16],
}

fn key_of(b: &[u8], path: &Path) -> Result<[u8; 16]> {
    b.try_into().map_err(|_| {
        bad(
            path,
            format!("an exact key of {} bytes (16 expected)", b.len()),
        )
    })
}

fn occurrence_rows(c: &Columns<'_>) -> Result<Vec<OccurrenceRow>> {
    let (input, seq, ordinal) = (c.long("input")?, c.long("seq")?, c.long("ordinal")?);
    let (start, end, key) = (c.long("start")?, c.long("end")?, c.bytes("exact_key")?);
    (0..c.batch.num_rows())
        .map(|i| {
            Ok(OccurrenceRow {
                order: (input.value(i), seq.value(i)),
                ordinal: ordinal.value(i),
                start: start.value(i),
                end: end.value(i),
                key: key_of(key.value(i), c.path)?,
            })
        })
        .collect()
}

/// A distinct text as the job left it.
struct Variant {
    text: String,
    record: Record,
    cluster: Option<i64>,
    canonical: bool,
}

fn read_variants(dir: &Path) -> Result<FxHashMap<[u8; 16], Variant>> {
    let mut out: FxHashMap<[u8; 16], Variant> = FxHashMap::default();
    let mut records = Rows::open(dir, "records", |c| {
        let (key, text, record) = (c.bytes("exact_key")?, c.text("text")?, c.text("record")?);
        (0..c.batch.num_rows())
            .map(|i| {
                let record: Record = serde_json::from_str(record.value(i))
                    .map_err(|e| bad(c.path, format!("record row {i}: {e}")))?;
                let text = text.value(i).to_string();
                let key = key_of(key.value(i), c.path)?;
                if cairn_dedup::exact_key(&text).to_bytes() != key {
                    return Err(bad(
                        c.path,
                        format!("record row {i}: the exact key is not its text's"),
                    ));
                }
                Ok((key, text, record))
            })
            .collect()
    })?;
    while let Some((key, text, record)) = records.next()? {
        out.insert(
            key,
            Variant {
                text,
                record,
                cluster: None,
                canonical: false,
            },
        );
    }
    let mut clusters = Rows::open(dir, "clusters", |c| {
        let (key, cluster, canonical) = (
            c.bytes("exact_key")?,
            c.long("cluster")?,
            c.flag("canonical")?,
        );
        (0..c.batch.num_rows())
            .map(|i| {
                Ok((
                    key_of(key.value(i), c.path)?,
                    cluster.value(i),
                    canonical.value(i),
                ))
            })
            .collect()
    })?;
    while let Some((key, cluster, canonical)) = clusters.next()? {
        let path = clusters.path();
        let v = out
            .get_mut(&key)
            .ok_or_else(|| bad(&path, "a cluster row for a text that records does not hold"))?;
        v.cluster = Some(cluster);
        v.canonical = canonical;
    }
    if out.values().any(|v| v.cluster.is_none()) {
        return Err(bad(
            &dir.join("clusters"),
            "a text of records has no cluster",
        ));
    }
    Ok(out)
}

/// Assigns new texts to the captions of the job's clusters.
struct JobClusters<'a> {
    variants: &'a FxHashMap<[u8; 16], Variant>,
    captions: FxHashMap<i64, i64>,
}

impl JobClusters<'_> {
    fn variant(&self, text: &str) -> Option<&Variant> {
        self.variants.get(&cairn_dedup::exact_key(text).to_bytes())
    }
}

impl Clusterer for JobClusters<'_> {
    fn assign(&mut self, key: &[u8; 16], _text: &str) -> Option<i64> {
        let cluster = self.variants.get(key)?.cluster?;
        self.captions.get(&cluster).copied()
    }
    fn created(&mut self, caption: i64, text: &str) {
        if let Some(cluster) = self.variant(text).and_then(|v| v.cluster) {
            self.captions.insert(cluster, caption);
        }
    }
    fn prefer(&mut self, _caption: i64, candidate: &str, _current: &str) -> bool {
        self.variant(candidate).is_some_and(|v| v.canonical)
    }
}

/// Checks a source row's bytes against its sha256, and reads its kind and warnings.
fn checked(s: &SourceRow, path: &Path) -> Result<(SourceKind, Vec<String>)> {
    if cairn_ingest::sha256_hex(&s.content) != s.sha256 {
        return Err(bad(
            path,
            format!("source {}: its bytes do not hash to its sha256", s.uri),
        ));
    }
    let kind = SourceKind::parse(&s.kind)
        .ok_or_else(|| bad(path, format!("source {}: unknown kind {:?}", s.uri, s.kind)))?;
    let warnings: Vec<String> = serde_json::from_str(&s.warnings)
        .map_err(|e| bad(path, format!("source {}: warnings: {e}", s.uri)))?;
    Ok((kind, warnings))
}

/// The occurrences of source `s`: those of the occurrence rows, from `pending` on, that
/// belong to it, checked (order, known text, span and ordinal); `pending` is left at
/// the first row of a later source.
fn source_occurrences(
    s: &SourceRow,
    variants: &FxHashMap<[u8; 16], Variant>,
    occurrences: &mut Rows<OccurrenceRow>,
    pending: &mut Option<OccurrenceRow>,
) -> Result<Vec<NewOccurrence>> {
    let mut occ = Vec::new();
    while let Some(o) = pending.take_if(|o| o.order <= s.order) {
        if o.order < s.order {
            return Err(bad(
                &occurrences.path(),
                format!(
                    "an occurrence of {:?}, a source that is not there (or out of order)",
                    o.order
                ),
            ));
        }
        let v = variants.get(&o.key).ok_or_else(|| {
            bad(
                &occurrences.path(),
                format!(
                    "source {}: an occurrence of a text records does not hold",
                    s.uri
                ),
            )
        })?;
        let span_ok = 0 <= o.start && o.start <= o.end && o.end <= s.text_len;
        if !span_ok || o.ordinal != occ.len() as i64 {
            return Err(bad(
                &occurrences.path(),
                format!(
                    "source {}: occurrence {} has a bad span or ordinal",
                    s.uri, o.ordinal
                ),
            ));
        }
        occ.push(NewOccurrence {
            span: Span::new(o.start as usize, o.end as usize),
            text: v.text.clone(),
            key: o.key,
            record: Some(v.record.clone()),
            packed: None,
        });
        *pending = occurrences.next()?;
    }
    Ok(occ)
}

/// Imports the job output in `dir` into `archive`.
pub fn import(
    archive: &mut ArchiveWriter,
    dir: &Path,
    batch_sources: usize,
    on_event: &mut dyn FnMut(Event),
) -> Result<Report> {
    let variants = read_variants(dir)?;
    let mut sources = Rows::open(dir, "sources", source_rows)?;
    let mut occurrences = Rows::open(dir, "occurrences", occurrence_rows)?;
    let planned: u64 = parts(dir, "sources")?
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    on_event(Event::Planned {
        inputs: 1,
        bytes: planned,
    });
    let mut clusters = JobClusters {
        variants: &variants,
        captions: FxHashMap::default(),
    };
    let mut report = Report {
        inputs: 1,
        ..Default::default()
    };
    let mut pending_occurrence = occurrences.next()?;
    let mut last: Option<(i64, i64)> = None;
    let mut batch: Vec<NewSource> = Vec::new();
    loop {
        let row = sources.next()?;
        let flush = row.is_none() || batch.len() >= batch_sources.max(1);
        if flush && !batch.is_empty() {
            let summary = archive.write_batch_with(&batch, &mut clusters)?;
            report.add(&summary);
            on_event(Event::Committed(summary));
            batch.clear();
        }
        let Some(s) = row else { break };
        let path = sources.path();
        if last.is_some_and(|l| l >= s.order) {
            return Err(bad(&path, format!("sources out of order at {:?}", s.order)));
        }
        last = Some(s.order);
        let (kind, warnings) = checked(&s, &path)?;
        let occ = source_occurrences(&s, &variants, &mut occurrences, &mut pending_occurrence)?;
        on_event(Event::Read {
            bytes: s.content.len() as u64,
            captions: occ.len() as u64,
        });
        batch.push(NewSource {
            uri: s.uri,
            kind,
            sha256: s.sha256,
            encoding: s.encoding,
            text_len: s.text_len as usize,
            bytes: s.content,
            packed: None,
            warnings,
            origin: s.origin,
            occurrences: occ,
        });
    }
    if let Some(o) = pending_occurrence {
        return Err(bad(
            &occurrences.path(),
            format!("an occurrence of {:?}, a source that is not there", o.order),
        ));
    }
    if report.sources_added > 0 {
        archive.compact_index(4)?;
    }
    Ok(report)
}
