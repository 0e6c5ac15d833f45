//! How records are stored: JSON, compressed with a zstd dictionary trained on the
//! archive's own first records.
//!
//! A record's JSON is about 1.2 KB, mostly keys and values every record repeats
//! (field names, place kinds, country codes, ancestor ids). Alone, zstd gets little of
//! that back; with a dictionary trained on a few thousand records, a record takes a
//! seventh of its JSON. Records written before the archive had enough to train on stay
//! plain JSON text; the `record` column holds either TEXT (JSON) or a BLOB (a zstd frame
//! whose header names its dictionary in `record_dict`). Dictionaries are never changed
//! or removed once written, so any record can always be read.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use cairn_model::Record;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension};

/// Train a dictionary once the archive holds this many records.
pub(crate) const TRAIN_AT: usize = 2000;
/// Records sampled for training, at most.
const MAX_SAMPLES: usize = 8000;
/// Dictionary size in bytes.
const DICT_SIZE: usize = 32 * 1024;
/// zstd level for records.
const LEVEL: i32 = 3;

thread_local! {
    /// This thread's compression context with the dictionary it was made for.
    static ENCODER: std::cell::RefCell<Option<(u32, zstd::bulk::Compressor<'static>)>> =
        const { std::cell::RefCell::new(None) };
    /// This thread's decompression context with its dictionary.
    static DECODER: std::cell::RefCell<Option<(u32, zstd::bulk::Decompressor<'static>)>> =
        const { std::cell::RefCell::new(None) };
}

/// A trained dictionary.
pub(crate) struct Dict {
    pub id: u32,
    pub bytes: Vec<u8>,
}

impl Dict {
    fn new(id: u32, bytes: Vec<u8>) -> Self {
        Dict { id, bytes }
    }

    /// Trains a dictionary on sample records (JSON); `None` when zstd finds too little
    /// to learn from.
    pub fn train(samples: &[Vec<u8>]) -> Option<Dict> {
        let take = &samples[..samples.len().min(MAX_SAMPLES)];
        let bytes = zstd::dict::from_samples(take, DICT_SIZE).ok()?;
        let id = zstd::zstd_safe::get_dict_id_from_dict(&bytes)?.get();
        Some(Dict::new(id, bytes))
    }
}

/// What the `record` column holds for one record.
#[derive(Debug, Clone)]
pub(crate) enum Stored {
    Json(String),
    Packed(Vec<u8>),
}

/// A record in the form the archive stores it, made ahead of the write (in parallel)
/// by a [`RecordPacker`].
#[derive(Debug, Clone)]
pub struct PackedRecord {
    pub(crate) stored: Stored,
    /// The dictionary it was packed with, if any.
    pub(crate) dict: Option<u32>,
}

/// Packs records as the archive would, with the dictionary it writes with now; cheap to
/// clone and usable from any thread. A record packed before the archive trained its
/// dictionary is packed again by the writer.
#[derive(Debug, Clone)]
pub struct RecordPacker(pub(crate) Arc<Codec>);

impl RecordPacker {
    /// The stored form of `record`.
    pub fn pack(&self, record: &Record) -> PackedRecord {
        let dict = self.0.current();
        PackedRecord {
            stored: Codec::encode(record, dict.as_deref()),
            dict: dict.map(|d| d.id),
        }
    }
}

impl rusqlite::ToSql for Stored {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(match self {
            Stored::Json(s) => rusqlite::types::ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
            Stored::Packed(b) => rusqlite::types::ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        })
    }
}

/// The archive's dictionaries, loaded as records need them.
#[derive(Default)]
pub(crate) struct Codec {
    dicts: RwLock<HashMap<u32, Arc<Dict>>>,
    /// The dictionary new records are written with (the writer's).
    current: RwLock<Option<Arc<Dict>>>,
}

impl std::fmt::Debug for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Codec").finish_non_exhaustive()
    }
}

impl Codec {
    /// The dictionary new records use, if the archive has one.
    pub fn current(&self) -> Option<Arc<Dict>> {
        crate::poison::read(&self.current).clone()
    }

    /// Loads the newest dictionary of the archive as the one to write with.
    pub fn load_current(&self, conn: &Connection) -> rusqlite::Result<()> {
        let row: Option<(i64, Vec<u8>)> = conn
            .query_row(
                "SELECT id, data FROM record_dict ORDER BY rowid DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((id, bytes)) = row {
            let d = Arc::new(Dict::new(id as u32, bytes));
            self.install(d);
        }
        Ok(())
    }

    /// Makes `d` known and the one to write with (after its row is committed).
    pub fn install(&self, d: Arc<Dict>) {
        crate::poison::write(&self.dicts).insert(d.id, d.clone());
        *crate::poison::write(&self.current) = Some(d);
    }

    /// The stored form of a record, with `dict` when given.
    pub fn encode(record: &Record, dict: Option<&Dict>) -> Stored {
        let json = serde_json::to_string(record).unwrap_or_default();
        if let Some(d) = dict {
            // A compression context is costly to make: keep one per thread and
            // dictionary.
            let packed = ENCODER.with_borrow_mut(|slot| {
                if slot.as_ref().map(|(id, _)| *id) != Some(d.id) {
                    *slot = zstd::bulk::Compressor::with_dictionary(LEVEL, &d.bytes)
                        .ok()
                        .map(|c| (d.id, c));
                }
                slot.as_mut()
                    .and_then(|(_, c)| c.compress(json.as_bytes()).ok())
            });
            if let Some(packed) = packed {
                return Stored::Packed(packed);
            }
        }
        Stored::Json(json)
    }

    fn dict(&self, conn: &Connection, id: u32) -> Result<Arc<Dict>, String> {
        if let Some(d) = crate::poison::read(&self.dicts).get(&id) {
            return Ok(d.clone());
        }
        let bytes: Option<Vec<u8>> = conn
            .query_row(
                "SELECT data FROM record_dict WHERE id = ?1",
                [i64::from(id)],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| e.to_string())?;
        let bytes = bytes.ok_or_else(|| format!("record dictionary {id} is missing"))?;
        let d = Arc::new(Dict::new(id, bytes));
        crate::poison::write(&self.dicts).insert(id, d.clone());
        Ok(d)
    }

    /// Reads a stored record; `Ok(None)` for NULL.
    pub fn decode(&self, conn: &Connection, v: ValueRef<'_>) -> Result<Option<Record>, String> {
        let json: std::borrow::Cow<'_, [u8]> = match v {
            ValueRef::Null => return Ok(None),
            ValueRef::Text(t) => t.into(),
            ValueRef::Blob(b) => {
                let id = zstd::zstd_safe::get_dict_id_from_frame(b)
                    .ok_or("a packed record names no dictionary")?
                    .get();
                let d = self.dict(conn, id)?;
                let size = zstd::zstd_safe::get_frame_content_size(b)
                    .ok()
                    .flatten()
                    .ok_or("a packed record has no size")?;
                DECODER
                    .with_borrow_mut(|slot| {
                        if slot.as_ref().map(|(id, _)| *id) != Some(id) {
                            *slot = Some((
                                id,
                                zstd::bulk::Decompressor::with_dictionary(&d.bytes)
                                    .map_err(|e| e.to_string())?,
                            ));
                        }
                        let (_, dec) = slot.as_mut().ok_or("no decompressor")?;
                        dec.decompress(b, size as usize)
                            .map_err(|e| format!("cannot unpack a record: {e}"))
                    })?
                    .into()
            }
            _ => return Err("a record is neither text nor blob".into()),
        };
        serde_json::from_slice(&json)
            .map(Some)
            .map_err(|e| format!("a record is not valid JSON: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(i: usize) -> Record {
        let mut r = Record {
            text: format!(
                "Caption number {i} in Aleppo, Syria, on November {}, 2016.",
                i % 28 + 1
            ),
            ..Record::default()
        };
        r.persons.push(format!("Person {}", i % 37));
        r.event_types.push("Air/drone strike".into());
        r
    }

    #[test]
    fn packed_records_read_back_equal_and_smaller() {
        let samples: Vec<Vec<u8>> = (0..TRAIN_AT)
            .map(|i| serde_json::to_vec(&record(i)).unwrap())
            .collect();
        let d = Arc::new(Dict::train(&samples).expect("enough samples"));
        let conn = Connection::open_in_memory().unwrap();
        let codec = Codec::default();
        codec.install(d.clone());
        let r = record(99_999);
        let json_len = serde_json::to_string(&r).unwrap().len();
        let Stored::Packed(p) = Codec::encode(&r, Some(&d)) else {
            panic!("not packed")
        };
        assert!(p.len() * 2 < json_len, "{} vs {json_len}", p.len());
        let back = codec.decode(&conn, ValueRef::Blob(&p)).unwrap().unwrap();
        assert_eq!(back, r);
        // Plain JSON still reads, and an unknown dictionary is a clear error.
        let Stored::Json(j) = Codec::encode(&r, None) else {
            panic!("packed without a dictionary")
        };
        assert_eq!(
            codec
                .decode(&conn, ValueRef::Text(j.as_bytes()))
                .unwrap()
                .unwrap(),
            r
        );
        let fresh = Codec::default();
        conn.execute_batch("CREATE TABLE record_dict (id INTEGER PRIMARY KEY, data BLOB)")
            .unwrap();
        assert!(
            fresh
                .decode(&conn, ValueRef::Blob(&p))
                .unwrap_err()
                .contains("missing")
        );
    }
}
