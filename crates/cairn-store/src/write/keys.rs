//! What the writer keeps in memory to find stored rows by hash: every variant by its
//! exact key and, during a bulk write, every blob by its sha256. Looking a key up here
//! instead of in a table's index saves a random page read per occurrence on a large
//! archive, and during a bulk write the blobs' index is not there at all.

use rustc_hash::FxHashMap;

#[derive(Default)]
pub(super) struct Keys {
    /// Every stored variant's id by exact key, loaded by the first batch (`None` before,
    /// and after a failed batch: it is loaded again; `None` also when an id does not fit,
    /// and then keys are looked up in the table).
    pub variants: Option<FxHashMap<[u8; 16], u32>>,
    /// During a bulk write (the blobs' unique index dropped): every stored blob's id by
    /// a 64-bit hash of its sha256, the blobs there are.
    pub blobs: Option<FxHashMap<u64, i64>>,
}

impl Keys {
    /// The stored variant of `key` as the map knows it: `None` when there is no map.
    pub fn variant(&self, key: &[u8; 16]) -> Option<Option<i64>> {
        self.variants
            .as_ref()
            .map(|m| m.get(key).map(|&v| i64::from(v)))
    }

    /// Records a new variant in the map (which gives up when an id does not fit).
    pub fn remember_variant(&mut self, key: [u8; 16], id: i64) {
        if let Some(m) = &mut self.variants {
            match u32::try_from(id) {
                Ok(id) => {
                    m.insert(key, id);
                }
                Err(_) => self.variants = None,
            }
        }
    }

    /// Records a new blob in the map of a bulk write.
    pub fn remember_blob(&mut self, sha256: &str, id: i64) {
        if let Some(map) = &mut self.blobs {
            map.entry(blob_hash(sha256)).or_insert(id);
        }
    }

    /// Reads the map of blobs again from the database, during a bulk write whose map may
    /// be wrong or gone (a write rolled back, an index build that failed): without its
    /// unique index, a blob is known to be stored only by the map, so without the map
    /// the index must be there again.
    pub fn reload_blobs(&mut self, conn: &rusqlite::Connection) {
        self.blobs = load_blob_hashes(conn).ok();
        if self.blobs.is_none() {
            let _ = conn.execute_batch(crate::db::BULK_INDEXES);
        }
    }
}

/// The 64-bit hash a bulk write finds a blob's sha256 by ([`Keys::blobs`]).
pub(super) fn blob_hash(sha256: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(sha256)
}

/// Every stored blob's id by [`blob_hash`] (one of two hashes that collide: the other is
/// then looked for in the table).
pub(super) fn load_blob_hashes(
    conn: &rusqlite::Connection,
) -> rusqlite::Result<FxHashMap<u64, i64>> {
    let mut map = FxHashMap::default();
    let mut stmt = conn.prepare("SELECT id, sha256 FROM blob")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        map.entry(blob_hash(r.get_ref(1)?.as_str()?)).or_insert(id);
    }
    Ok(map)
}

/// Every variant's id by key, or `None` when an id does not fit the map (the store then
/// looks keys up in the table).
pub(super) fn load_variant_keys(
    conn: &rusqlite::Connection,
) -> rusqlite::Result<Option<FxHashMap<[u8; 16], u32>>> {
    let n: i64 = conn.query_row("SELECT count(*) FROM variant", [], |r| r.get(0))?;
    let mut map = FxHashMap::default();
    map.reserve(n.max(0) as usize);
    let mut stmt = conn.prepare("SELECT key, id FROM variant")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let key = r.get_ref(0)?.as_blob().unwrap_or_default();
        let id: i64 = r.get(1)?;
        let (Ok(key), Ok(id)) = (<[u8; 16]>::try_from(key), u32::try_from(id)) else {
            return Ok(None);
        };
        map.insert(key, id);
    }
    Ok(Some(map))
}
