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
    FixedSizeBinaryBuilder, Float32Builder, ListBuilder, StringBuilder, UInt64Builder,
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
/// the same JSON `cairn extract` prints).
#[pyfunction]
fn extract(py: Python<'_>, captions: PyArrowType<ArrayData>) -> PyResult<PyArrowType<ArrayData>> {
    let captions = strings(captions.0, "extract(captions)")?;
    let records = py.detach(|| {
        captions
            .iter()
            .map(|c| {
                c.as_deref()
                    .map(|t| serde_json::to_string(&extractor().extract(t)).unwrap_or_default())
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
/// candidate pairs for [`verify`]).
#[pyfunction]
fn signatures(
    py: Python<'_>,
    captions: PyArrowType<ArrayData>,
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

/// cairn's batch stages over Arrow arrays.
#[pymodule]
fn cairn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(segment, m)?)?;
    m.add_function(wrap_pyfunction!(segment_html, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(signatures, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
