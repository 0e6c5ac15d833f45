//! What the writer stores in packed form: a source's bytes as one zstd frame, and the
//! record dictionary trained when the archive has records enough.

use rusqlite::params;

use super::NewOccurrence;
use crate::codec::{Dict, TRAIN_AT};

/// zstd level for a source's bytes.
const BLOB_LEVEL: i32 = 3;

thread_local! {
    /// This thread's compression context for sources' bytes. Making one per source
    /// (`zstd::bulk::compress`) allocated and cleared its tables each time, a cost that
    /// showed in an ingest's profile.
    static BLOB_ENCODER: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// A source's bytes as the archive stores them: one zstd frame (the same frame whichever
/// thread makes it and whatever it compressed before: each call starts a new frame with
/// the same parameters).
pub fn pack(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    BLOB_ENCODER.with_borrow_mut(|slot| {
        let compressor = match slot {
            Some(c) => c,
            None => slot.insert(zstd::bulk::Compressor::new(BLOB_LEVEL)?),
        };
        compressor.compress(bytes)
    })
}

/// The most records the dictionary is trained on.
const MAX_SAMPLES: usize = 8000;

/// Trains and stores the archive's record dictionary when the archive and this batch
/// together reach [`TRAIN_AT`] records; `None` before that (or if zstd cannot train).
pub(super) fn train_dictionary<'o>(
    tx: &rusqlite::Connection,
    occurrences: impl Iterator<Item = &'o NewOccurrence> + Clone,
    now: &str,
) -> rusqlite::Result<Option<std::sync::Arc<Dict>>> {
    let stored: i64 = tx.query_row("SELECT count(*) FROM variant", [], |r| r.get(0))?;
    let incoming = occurrences.clone().filter(|o| o.record.is_some()).count();
    if (stored as usize) + incoming < TRAIN_AT {
        return Ok(None);
    }
    let mut samples: Vec<Vec<u8>> = Vec::new();
    {
        let mut stmt = tx.prepare(&format!(
            "SELECT record FROM variant WHERE typeof(record) = 'text' LIMIT {MAX_SAMPLES}"
        ))?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            samples.push(r.get::<_, String>(0)?.into_bytes());
        }
    }
    let mut seen = std::collections::HashSet::new();
    for o in occurrences {
        if samples.len() >= MAX_SAMPLES {
            break;
        }
        if let Some(r) = &o.record {
            if seen.insert(o.key) {
                samples.push(serde_json::to_vec(r).unwrap_or_default());
            }
        }
    }
    let Some(d) = Dict::train(&samples) else {
        return Ok(None);
    };
    tx.execute(
        "INSERT INTO record_dict (id, data, created_at) VALUES (?1, ?2, ?3)",
        params![i64::from(d.id), d.bytes, now],
    )?;
    Ok(Some(std::sync::Arc::new(d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random text of `n` bytes: words from a small list, so zstd finds matches.
    fn text(n: usize, seed: u64) -> Vec<u8> {
        let words = [
            "Douma", "rubble", "2016", "Syria", "a", "of", "REUTERS/", "\n\n",
        ];
        let mut out = Vec::with_capacity(n + 16);
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while out.len() < n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.extend_from_slice(words[(x % words.len() as u64) as usize].as_bytes());
            out.push(b' ');
        }
        out.truncate(n);
        out
    }

    #[test]
    fn a_reused_context_makes_the_frames_of_a_new_one() {
        // Sizes out of order: zstd sizes its tables by the input, so a small source
        // after a large one is the case a reused context could get wrong.
        for (i, n) in [0, 1, 5_000, 3_000_000, 70, 200_000, 5_000, 1 << 20]
            .into_iter()
            .enumerate()
        {
            let bytes = text(n, i as u64);
            let frame = pack(&bytes).unwrap();
            assert_eq!(
                frame,
                zstd::bulk::compress(&bytes, BLOB_LEVEL).unwrap(),
                "size {n}"
            );
            assert_eq!(zstd::stream::decode_all(&frame[..]).unwrap(), bytes);
        }
    }

    #[test]
    fn threads_make_the_same_frames() {
        let bytes = text(40_000, 7);
        let here = pack(&bytes).unwrap();
        let there = std::thread::spawn(move || pack(&bytes).unwrap())
            .join()
            .unwrap();
        assert_eq!(here, there);
    }
}
