//! cairn's pure batch stages for Python, over Apache Arrow arrays (pyarrow), for
//! engines such as Spark (`mapInArrow`) and Ray Data (`map_batches`): segmenting
//! pages into captions with their spans, extracting records, computing the
//! near-duplicate signatures and band keys, and verifying candidate pairs. Every
//! function calls the same Rust code as `cairn ingest`; none is re-implemented here.
//!
//! Inputs are pyarrow string arrays (`string`, `large_string` or `string_view`);
//! nulls are allowed and give nulls (or no rows). Outputs are pyarrow arrays or
//! record batches. The GIL is released while the stages run.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, FixedSizeBinaryBuilder, Float32Builder, Int64Builder,
    ListBuilder, StringBuilder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, Int32Array, Int64Array, RecordBatch, make_array};
use arrow_data::ArrayData;
use arrow_pyarrow::PyArrowType;
use arrow_schema::{DataType, Field, Schema};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn extractor() -> &'static cairn_extract::Extractor {
    static E: OnceLock<cairn_extract::Extractor> = OnceLock::new();
    E.get_or_init(cairn_extract::Extractor::bundled)
}

/// The strings of a pyarrow string array, `None` for nulls.
fn strings(data: ArrayData, what: &str) -> PyResult<Vec<Option<String>>> {
    let a = make_array(data);
    let out: Vec<Option<String>> = if let Some(s) = a.as_string_opt::<i32>() {
        s.iter().map(|v| v.map(str::to_string)).collect()
    } else if let Some(s) = a.as_string_opt::<i64>() {
        s.iter().map(|v| v.map(str::to_string)).collect()
    } else if let Some(s) = a.as_string_view_opt() {
        s.iter().map(|v| v.map(str::to_string)).collect()
    } else {
        return Err(PyValueError::new_err(format!(
            "{what}: expected a string array, got {}",
            a.data_type()
        )));
    };
    Ok(out)
}

fn batch(fields: Vec<Field>, columns: Vec<ArrayRef>) -> PyResult<PyArrowType<RecordBatch>> {
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
        .map(PyArrowType)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Captions with their spans, one row per caption: `page` (index of the input
/// row), `ordinal` (its place in the page), `start`/`end` (byte offsets in the page
/// text) and `text` (whitespace folded).
fn segments_batch(segmented: Vec<Vec<cairn_model::Segment>>) -> PyResult<PyArrowType<RecordBatch>> {
    let (mut page, mut ordinal, mut start, mut end) = (vec![], vec![], vec![], vec![]);
    let mut text = StringBuilder::new();
    for (p, segs) in segmented.into_iter().enumerate() {
        for (o, s) in segs.into_iter().enumerate() {
            page.push(p as i64);
            ordinal.push(o as i32);
            start.push(s.span.start as i64);
            end.push(s.span.end as i64);
            text.append_value(&s.text);
        }
    }
    batch(
        vec![
            Field::new("page", DataType::Int64, false),
            Field::new("ordinal", DataType::Int32, false),
            Field::new("start", DataType::Int64, false),
            Field::new("end", DataType::Int64, false),
            Field::new("text", DataType::Utf8, false),
        ],
        vec![
            Arc::new(Int64Array::from(page)),
            Arc::new(Int32Array::from(ordinal)),
            Arc::new(Int64Array::from(start)),
            Arc::new(Int64Array::from(end)),
            Arc::new(text.finish()),
        ],
    )
}

/// Splits plain-text pages into captions (blank-line separated paragraphs), as
/// `cairn ingest` does for text sources.
#[pyfunction]
fn segment(py: Python<'_>, pages: PyArrowType<ArrayData>) -> PyResult<PyArrowType<RecordBatch>> {
    let pages = strings(pages.0, "segment(pages)")?;
    let segmented = py.detach(|| {
        pages
            .iter()
            .map(|p| p.as_deref().map(cairn_extract::segment).unwrap_or_default())
            .collect::<Vec<_>>()
    });
    segments_batch(segmented)
}

/// Finds the captions of HTML pages (figcaption, caption blocks, data-caption,
/// alt/title, og:description, JSON-LD), as `cairn ingest` does for HTML sources;
/// the spans refer to the text the page renders to, returned as `page_text` in
/// the second element.
#[pyfunction]
fn segment_html(
    py: Python<'_>,
    pages: PyArrowType<ArrayData>,
) -> PyResult<(PyArrowType<RecordBatch>, PyArrowType<ArrayData>)> {
    let pages = strings(pages.0, "segment_html(pages)")?;
    let rendered = py.detach(|| {
        pages
            .iter()
            .map(|p| p.as_deref().map(cairn_ingest::html::render))
            .collect::<Vec<_>>()
    });
    let mut texts = StringBuilder::new();
    let mut segmented = Vec::with_capacity(rendered.len());
    for r in rendered {
        match r {
            Some((text, segs)) => {
                texts.append_value(&text);
                segmented.push(segs);
            }
            None => {
                texts.append_null();
                segmented.push(Vec::new());
            }
        }
    }
    Ok((
        segments_batch(segmented)?,
        PyArrowType(texts.finish().into_data()),
    ))
}

/// The record of each caption as JSON (the contract of `spec/caption-record.md`,
/// the same JSON `cairn extract` prints). `embedded`, when given, holds for each
/// caption the fields its source carries itself (the `embedded` column of
/// [`read_files`], or null), which take precedence over the text's as in `cairn ingest`.
#[pyfunction]
#[pyo3(signature = (captions, embedded=None))]
fn extract(
    py: Python<'_>,
    captions: PyArrowType<ArrayData>,
    embedded: Option<PyArrowType<ArrayData>>,
) -> PyResult<PyArrowType<ArrayData>> {
    let captions = strings(captions.0, "extract(captions)")?;
    let embedded = match embedded {
        None => vec![None; captions.len()],
        Some(e) => {
            let e = strings(e.0, "extract(embedded)")?;
            if e.len() != captions.len() {
                return Err(PyValueError::new_err(format!(
                    "extract: {} captions but {} embedded rows",
                    captions.len(),
                    e.len()
                )));
            }
            e.iter()
                .enumerate()
                .map(|(i, j)| {
                    j.as_deref()
                        .map(serde_json::from_str::<cairn_model::Embedded>)
                        .transpose()
                        .map_err(|err| {
                            PyValueError::new_err(format!(
                                "extract(embedded): row {i} is not the fields read_files gives: {err}"
                            ))
                        })
                })
                .collect::<PyResult<Vec<_>>>()?
        }
    };
    let records = py.detach(|| {
        captions
            .iter()
            .zip(&embedded)
            .map(|(c, e)| {
                c.as_deref().map(|t| {
                    serde_json::to_string(&extractor().caption_record(t, e.as_ref()))
                        .unwrap_or_default()
                })
            })
            .collect::<Vec<_>>()
    });
    let mut out = StringBuilder::new();
    for r in records {
        out.append_option(r);
    }
    Ok(PyArrowType(out.finish().into_data()))
}

/// What deduplication groups captions by: `exact_key` (16 bytes; equal keys are the
/// same text) and `band_keys` (the near-duplicate LSH keys; captions sharing one are
/// candidate pairs for [`verify`]). With `signed=True` the band keys are int64 (the
/// same 64 bits) and the exact key plain binary, for engines without unsigned or
/// fixed-size types (Spark).
#[pyfunction]
#[pyo3(signature = (captions, signed=false))]
fn signatures(
    py: Python<'_>,
    captions: PyArrowType<ArrayData>,
    signed: bool,
) -> PyResult<PyArrowType<RecordBatch>> {
    let captions = strings(captions.0, "signatures(captions)")?;
    let sigs = py.detach(|| {
        captions
            .iter()
            .map(|c| {
                c.as_deref().map(|t| {
                    let (key, f) = cairn_dedup::near::prepare(t);
                    (
                        key.to_bytes(),
                        cairn_dedup::band_keys(&f).collect::<Vec<u64>>(),
                    )
                })
            })
            .collect::<Vec<_>>()
    });
    if signed {
        let mut keys = BinaryBuilder::new();
        let mut bands = ListBuilder::new(Int64Builder::new());
        for s in sigs {
            match s {
                Some((k, b)) => {
                    keys.append_value(k);
                    bands.values().extend(b.iter().map(|&x| Some(x as i64)));
                    bands.append(true);
                }
                None => {
                    keys.append_null();
                    bands.append(false);
                }
            }
        }
        let keys = keys.finish();
        let bands = bands.finish();
        return batch(
            vec![
                Field::new("exact_key", keys.data_type().clone(), true),
                Field::new("band_keys", bands.data_type().clone(), true),
            ],
            vec![Arc::new(keys), Arc::new(bands)],
        );
    }
    let mut keys = FixedSizeBinaryBuilder::new(16);
    let mut bands = ListBuilder::new(UInt64Builder::new());
    for s in sigs {
        match s {
            Some((k, b)) => {
                keys.append_value(k)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                bands.values().append_slice(&b);
                bands.append(true);
            }
            None => {
                keys.append_null();
                bands.append(false);
            }
        }
    }
    let keys = keys.finish();
    let bands = bands.finish();
    batch(
        vec![
            Field::new("exact_key", keys.data_type().clone(), true),
            Field::new("band_keys", bands.data_type().clone(), true),
        ],
        vec![Arc::new(keys), Arc::new(bands)],
    )
}

/// For each pair `(a[i], b[i])`, how alike the two captions are (0..1) when they
/// show the same photograph at `threshold`, else null: the verification of a
/// candidate pair that `cairn ingest` applies.
#[pyfunction]
#[pyo3(signature = (a, b, threshold=cairn_dedup::DEFAULT_THRESHOLD))]
fn verify(
    py: Python<'_>,
    a: PyArrowType<ArrayData>,
    b: PyArrowType<ArrayData>,
    threshold: f32,
) -> PyResult<PyArrowType<ArrayData>> {
    let a = strings(a.0, "verify(a)")?;
    let b = strings(b.0, "verify(b)")?;
    if a.len() != b.len() {
        return Err(PyValueError::new_err(format!(
            "verify: a has {} rows and b {}",
            a.len(),
            b.len()
        )));
    }
    let scores = py.detach(|| {
        a.iter()
            .zip(&b)
            .map(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => cairn_dedup::similarity(
                    &cairn_dedup::features(x),
                    &cairn_dedup::features(y),
                    threshold,
                ),
                _ => None,
            })
            .collect::<Vec<_>>()
    });
    let mut out = Float32Builder::new();
    for s in scores {
        out.append_option(s);
    }
    Ok(PyArrowType(out.finish().into_data()))
}

/// Reads files as `cairn ingest` does (format by content, gzip/zstd undone, WARC
/// records and JSON Lines lines split out), renders each source and extracts its
/// captions: the whole parallel stage of an ingest, for one task's share of the files.
///
/// Returns two record batches. `sources`: one row per source read, in order: `input`
/// (row of `paths`), `seq` (its place among that file's sources), `uri`, `sha256`,
/// `kind`, `encoding`, `text_len`, `warnings` (JSON list), `origin` (JSON or null),
/// `content` (the exact bytes); a source that could not be read has only `error`
/// set. `captions`: one row per caption occurrence: `input`, `seq`, `ordinal`,
/// `start`, `end` (span in the source's rendering), `text`, `exact_key` (16 bytes),
/// `record` (JSON), `embedded` (the fields the source carries itself, IPTC/XMP or
/// JSON Lines, as JSON for [`extract`]; null when it has none).
///
/// With `extract=False` the records are left null: a caller that keeps one record per
/// distinct text (as `cairn ingest` does) extracts those alone afterwards with
/// `extract(texts, embedded)`, the text's first occurrence's `embedded`, which gives
/// the record this function would have given there.
#[pyfunction]
#[pyo3(signature = (paths, text_field="caption", uri_field=Some("uri"), date_field=Some("date"), extract=true))]
fn read_files(
    py: Python<'_>,
    paths: PyArrowType<ArrayData>,
    text_field: &str,
    uri_field: Option<&str>,
    date_field: Option<&str>,
    extract: bool,
) -> PyResult<(PyArrowType<RecordBatch>, PyArrowType<RecordBatch>)> {
    let paths = strings(paths.0, "read_files(paths)")?;
    let opts = cairn_ingest::ReadOptions {
        text_field: text_field.to_string(),
        uri_field: uri_field.map(str::to_string),
        date_field: date_field.map(str::to_string),
        // A revisit may find its record in an earlier file of the same call.
        ..cairn_ingest::ReadOptions::default()
    };
    type Read = Vec<(usize, Result<Prepared, String>)>;
    struct Prepared {
        doc: cairn_model::Document,
        captions: cairn_extract::DocumentCaptions,
    }
    let read: Read = py.detach(|| {
        let mut out = Vec::new();
        for (i, p) in paths.iter().enumerate() {
            let Some(p) = p else { continue };
            let input = cairn_ingest::Input::File(p.into());
            cairn_ingest::read_input(&input, &opts, &mut |raw| {
                let r = raw.and_then(cairn_ingest::render).map(|mut doc| {
                    let captions = if extract {
                        extractor().document(doc.segments.take(), &doc.text, doc.embedded.as_ref())
                    } else {
                        let (segments, warnings) =
                            cairn_extract::document_segments(doc.segments.take(), &doc.text);
                        cairn_extract::DocumentCaptions {
                            captions: segments
                                .into_iter()
                                .map(|s| (s, cairn_model::Record::default()))
                                .collect(),
                            warnings,
                        }
                    };
                    Prepared { doc, captions }
                });
                out.push((i, r.map_err(|e| e.to_string())));
                true
            });
        }
        out
    });
    let mut s_input = Int64Builder::new();
    let mut s_seq = Int64Builder::new();
    let (mut uri, mut sha, mut kind, mut enc) = (
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    let mut text_len = Int64Builder::new();
    let (mut warnings, mut origin, mut error) = (
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    let mut content = BinaryBuilder::new();
    let (mut c_input, mut c_seq, mut c_ord, mut c_start, mut c_end) = (
        Int64Builder::new(),
        Int64Builder::new(),
        Int64Builder::new(),
        Int64Builder::new(),
        Int64Builder::new(),
    );
    let (mut c_text, mut c_record, mut c_embedded) = (
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    let mut c_key = BinaryBuilder::new();
    let mut seq_of: Vec<i64> = vec![0; paths.len()];
    for (i, r) in read {
        let seq = seq_of[i];
        seq_of[i] += 1;
        s_input.append_value(i as i64);
        s_seq.append_value(seq);
        match r {
            Err(e) => {
                for b in [
                    &mut uri,
                    &mut sha,
                    &mut kind,
                    &mut enc,
                    &mut warnings,
                    &mut origin,
                ] {
                    b.append_null();
                }
                text_len.append_null();
                content.append_null();
                error.append_value(e);
            }
            Ok(Prepared { doc, captions }) => {
                let mut w = doc.warnings;
                w.extend(captions.warnings);
                uri.append_value(&doc.uri);
                sha.append_value(&doc.sha256);
                kind.append_value(doc.kind.as_str());
                enc.append_value(&doc.encoding);
                text_len.append_value(doc.text.len() as i64);
                warnings.append_value(serde_json::to_string(&w).unwrap_or_else(|_| "[]".into()));
                origin.append_option(doc.origin.as_deref());
                content.append_value(&doc.bytes);
                error.append_null();
                let embedded = doc
                    .embedded
                    .as_ref()
                    .map(|e| serde_json::to_string(e).unwrap_or_default());
                for (o, (seg, record)) in captions.captions.into_iter().enumerate() {
                    c_input.append_value(i as i64);
                    c_seq.append_value(seq);
                    c_ord.append_value(o as i64);
                    c_start.append_value(seg.span.start as i64);
                    c_end.append_value(seg.span.end as i64);
                    c_key.append_value(cairn_dedup::exact_key(&seg.text).to_bytes());
                    c_text.append_value(&seg.text);
                    if extract {
                        c_record.append_value(serde_json::to_string(&record).unwrap_or_default());
                    } else {
                        c_record.append_null();
                    }
                    c_embedded.append_option(embedded.as_deref());
                }
            }
        }
    }
    let long = |n: &str, null| Field::new(n, DataType::Int64, null);
    let text = |n: &str, null| Field::new(n, DataType::Utf8, null);
    let sources = batch(
        vec![
            long("input", false),
            long("seq", false),
            text("uri", true),
            text("sha256", true),
            text("kind", true),
            text("encoding", true),
            long("text_len", true),
            text("warnings", true),
            text("origin", true),
            Field::new("content", DataType::Binary, true),
            text("error", true),
        ],
        vec![
            Arc::new(s_input.finish()),
            Arc::new(s_seq.finish()),
            Arc::new(uri.finish()),
            Arc::new(sha.finish()),
            Arc::new(kind.finish()),
            Arc::new(enc.finish()),
            Arc::new(text_len.finish()),
            Arc::new(warnings.finish()),
            Arc::new(origin.finish()),
            Arc::new(content.finish()),
            Arc::new(error.finish()),
        ],
    )?;
    let captions = batch(
        vec![
            long("input", false),
            long("seq", false),
            long("ordinal", false),
            long("start", false),
            long("end", false),
            text("text", false),
            Field::new("exact_key", DataType::Binary, false),
            text("record", true),
            text("embedded", true),
        ],
        vec![
            Arc::new(c_input.finish()),
            Arc::new(c_seq.finish()),
            Arc::new(c_ord.finish()),
            Arc::new(c_start.finish()),
            Arc::new(c_end.finish()),
            Arc::new(c_text.finish()),
            Arc::new(c_key.finish()),
            Arc::new(c_record.finish()),
            Arc::new(c_embedded.finish()),
        ],
    )?;
    Ok((sources, captions))
}

/// The rows a text brings to the LSH key groups: one per distinct band key of each
/// text, `key` (int64), `pos` (the text's `pos`), `bits` (int32: bit `i` set for its
/// `i`-th band key, as `cluster` takes them) and `sketch` (binary: what
/// `candidate_pairs` bounds similarity with, far smaller than the text). Null texts
/// bring none.
#[pyfunction]
fn key_sketches(
    py: Python<'_>,
    pos: PyArrowType<ArrayData>,
    texts: PyArrowType<ArrayData>,
) -> PyResult<PyArrowType<RecordBatch>> {
    let pos = arrow_cast_i64(&make_array(pos.0), "key_sketches(pos)")?;
    let texts = strings(texts.0, "key_sketches(texts)")?;
    if pos.len() != texts.len() {
        return Err(PyValueError::new_err(format!(
            "key_sketches: pos has {} rows and texts {}",
            pos.len(),
            texts.len()
        )));
    }
    let rows = py.detach(|| {
        let mut rows: Vec<(u64, i64, u16, [u8; cairn_dedup::groups::SKETCH_BYTES])> = Vec::new();
        for (&p, t) in pos.iter().zip(&texts) {
            let Some(t) = t else { continue };
            let f = cairn_dedup::features(t);
            let sketch = cairn_dedup::groups::Sketch::of(&f).to_bytes();
            rows.extend(
                cairn_dedup::groups::key_bits(&f)
                    .into_iter()
                    .map(|(k, bits)| (k, p, bits, sketch)),
            );
        }
        rows
    });
    let mut sketches =
        BinaryBuilder::with_capacity(rows.len(), rows.len() * cairn_dedup::groups::SKETCH_BYTES);
    for r in &rows {
        sketches.append_value(r.3);
    }
    let sketches = sketches.finish();
    batch(
        vec![
            Field::new("key", DataType::Int64, false),
            Field::new("pos", DataType::Int64, false),
            Field::new("bits", DataType::Int32, false),
            Field::new("sketch", sketches.data_type().clone(), false),
        ],
        vec![
            Arc::new(Int64Array::from_iter_values(
                rows.iter().map(|r| r.0 as i64),
            )),
            Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.1))),
            Arc::new(Int32Array::from_iter_values(
                rows.iter().map(|r| i32::from(r.2)),
            )),
            Arc::new(sketches),
        ],
    )
}

/// Candidate pairs of LSH key groups (rows from `key_sketches`, any order, many groups
/// a call; a group is a `key` and a `salt`, 0 unless the key is split): in each group, every text against the earlier eligible texts whose
/// sketches may match it (see the Rust docs of `cairn_dedup::groups`). `role` (int):
/// 0 when the group holds the whole key (a text is eligible when among its first
/// `max_bucket`), 1 for a text of a key split over several groups and 2 for one of
/// that key's eligible texts, copied to each of them.
///
/// Returns `t`, `u` (positions, `u` before `t`: the pairs to verify on the texts; a
/// pair once per group it is found in) and `bits` (int32: `u`'s bits of the group's
/// key). A text's eligible keys for `cluster` are the OR of its `bits` over the
/// verified pairs where it is `u` (why that is enough: the Rust docs of
/// `cairn_dedup::groups::Candidate`).
#[pyfunction]
#[pyo3(signature = (key, salt, pos, bits, role, sketch, max_bucket=cairn_dedup::MAX_BUCKET, threshold=cairn_dedup::DEFAULT_THRESHOLD))]
#[allow(clippy::too_many_arguments)]
fn candidate_pairs(
    py: Python<'_>,
    key: PyArrowType<ArrayData>,
    salt: PyArrowType<ArrayData>,
    pos: PyArrowType<ArrayData>,
    bits: PyArrowType<ArrayData>,
    role: PyArrowType<ArrayData>,
    sketch: PyArrowType<ArrayData>,
    max_bucket: usize,
    threshold: f32,
) -> PyResult<PyArrowType<RecordBatch>> {
    use cairn_dedup::groups::{GroupRow, Role, Sketch};
    let key = arrow_cast_i64(&make_array(key.0), "candidate_pairs(key)")?;
    let salt = arrow_cast_i64(&make_array(salt.0), "candidate_pairs(salt)")?;
    let pos = arrow_cast_i64(&make_array(pos.0), "candidate_pairs(pos)")?;
    let bits = arrow_cast_i64(&make_array(bits.0), "candidate_pairs(bits)")?;
    let role = arrow_cast_i64(&make_array(role.0), "candidate_pairs(role)")?;
    let sketch = make_array(sketch.0);
    let n = key.len();
    if salt.len() != n || pos.len() != n || bits.len() != n || role.len() != n || sketch.len() != n
    {
        return Err(PyValueError::new_err(
            "candidate_pairs: the arrays differ in length",
        ));
    }
    // A null sketch reads as empty, which no sketch is.
    let sketches: Vec<&[u8]> = match sketch.data_type() {
        DataType::Binary => sketch
            .as_binary::<i32>()
            .iter()
            .map(|v| v.unwrap_or_default())
            .collect(),
        DataType::LargeBinary => sketch
            .as_binary::<i64>()
            .iter()
            .map(|v| v.unwrap_or_default())
            .collect(),
        other => {
            return Err(PyValueError::new_err(format!(
                "candidate_pairs(sketch): expected binary, got {other}"
            )));
        }
    };
    let mut rows = Vec::with_capacity(n);
    for i in 0..n {
        let bad =
            |what: &str| PyValueError::new_err(format!("candidate_pairs: row {i} has {what}"));
        let sketch =
            Sketch::from_bytes(sketches[i]).ok_or_else(|| bad("no sketch of the right length"))?;
        let role = match role[i] {
            0 => Role::Both,
            1 => Role::Query,
            2 => Role::Found,
            r => return Err(bad(&format!("role {r} (0, 1 or 2 expected)"))),
        };
        let bits = u16::try_from(bits[i]).map_err(|_| bad("bits out of range"))?;
        rows.push(GroupRow {
            group: (key[i], salt[i]),
            pos: pos[i],
            bits,
            role,
            sketch,
        });
    }
    let found = py.detach(|| cairn_dedup::groups::group_candidates(&rows, max_bucket, threshold));
    batch(
        vec![
            Field::new("t", DataType::Int64, false),
            Field::new("u", DataType::Int64, false),
            Field::new("bits", DataType::Int32, false),
        ],
        vec![
            Arc::new(Int64Array::from_iter_values(found.iter().map(|c| c.t))),
            Arc::new(Int64Array::from_iter_values(found.iter().map(|c| c.u))),
            Arc::new(Int32Array::from_iter_values(
                found.iter().map(|c| i32::from(c.bits)),
            )),
        ],
    )
}

/// Clusters distinct caption texts given in input order, exactly as `cairn ingest`
/// and `cairn dedup` do, with each text's eligible LSH keys given (bit `i` for the
/// `i`-th of its `band_keys`; see the Rust docs of `cairn_dedup::Eligible`). Meant
/// for one connected part of the verified candidate-pair graph at a time: that gives
/// the clusters a single pass over the whole input gives.
///
/// Returns `cluster` (the row of the cluster's first text) and `canonical` (whether
/// the text is its cluster's canonical, most complete, variant).
#[pyfunction]
#[pyo3(signature = (texts, eligible, threshold=cairn_dedup::DEFAULT_THRESHOLD))]
fn cluster(
    py: Python<'_>,
    texts: PyArrowType<ArrayData>,
    eligible: PyArrowType<ArrayData>,
    threshold: f32,
) -> PyResult<PyArrowType<RecordBatch>> {
    let texts = strings(texts.0, "cluster(texts)")?;
    let eligible = make_array(eligible.0);
    let eligible = arrow_cast_i64(&eligible, "cluster(eligible)")?;
    if texts.len() != eligible.len() {
        return Err(PyValueError::new_err(format!(
            "cluster: texts has {} rows and eligible {}",
            texts.len(),
            eligible.len()
        )));
    }
    if texts.iter().any(Option::is_none) {
        return Err(PyValueError::new_err("cluster: texts holds a null"));
    }
    let assigned = py.detach(|| {
        let mut d = cairn_dedup::Deduper::new(threshold);
        let mut first: Vec<i64> = Vec::new();
        for (row, (t, e)) in texts.iter().zip(&eligible).enumerate() {
            let c = d.push_eligible(
                t.as_deref().unwrap_or_default(),
                cairn_dedup::Eligible(*e as u16),
            );
            if c as usize == first.len() {
                first.push(row as i64);
            }
        }
        (d.finish(), first)
    });
    let (out, first) = assigned;
    let mut cl = Int64Builder::new();
    let mut canon = BooleanBuilder::new();
    for (c, is_canonical) in out {
        cl.append_value(first[c as usize]);
        canon.append_value(is_canonical);
    }
    batch(
        vec![
            Field::new("cluster", DataType::Int64, false),
            Field::new("canonical", DataType::Boolean, false),
        ],
        vec![Arc::new(cl.finish()), Arc::new(canon.finish())],
    )
}

/// The values of an integer array (any width, no nulls) as i64.
fn arrow_cast_i64(a: &ArrayRef, what: &str) -> PyResult<Vec<i64>> {
    use arrow_array::types::*;
    let bad = || {
        PyValueError::new_err(format!(
            "{what}: expected integers without nulls, got {}",
            a.data_type()
        ))
    };
    if a.null_count() > 0 {
        return Err(bad());
    }
    macro_rules! take {
        ($($t:ty),*) => {
            $(if let Some(x) = a.as_primitive_opt::<$t>() {
                return Ok(x.values().iter().map(|&v| v as i64).collect());
            })*
        };
    }
    take!(
        Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type
    );
    Err(bad())
}

/// The files `cairn ingest` would read for these paths, in its order: each path in
/// turn, directories walked with entries sorted by name and hidden ones skipped; made
/// absolute (so tasks on other machines or working directories find them). A path that
/// does not exist, or `-`, is an error naming it.
#[pyfunction]
fn input_files(paths: Vec<String>) -> PyResult<Vec<String>> {
    let paths: Vec<std::path::PathBuf> = paths.into_iter().map(Into::into).collect();
    let (inputs, errors) = cairn_ingest::expand_paths(&paths);
    if let Some(e) = errors.first() {
        return Err(PyValueError::new_err(e.to_string()));
    }
    inputs
        .into_iter()
        .map(|(i, _)| match i {
            cairn_ingest::Input::File(p) => std::path::absolute(&p)
                .map(|p| p.display().to_string())
                .map_err(|e| PyValueError::new_err(format!("{}: {e}", p.display()))),
            cairn_ingest::Input::Stdin => Err(PyValueError::new_err(
                "-: standard input cannot be split into tasks",
            )),
        })
        .collect()
}

/// cairn's batch stages over Arrow arrays.
#[pymodule]
fn cairn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(segment, m)?)?;
    m.add_function(wrap_pyfunction!(segment_html, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(signatures, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(read_files, m)?)?;
    m.add_function(wrap_pyfunction!(input_files, m)?)?;
    m.add_function(wrap_pyfunction!(cluster, m)?)?;
    m.add_function(wrap_pyfunction!(key_sketches, m)?)?;
    m.add_function(wrap_pyfunction!(candidate_pairs, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
