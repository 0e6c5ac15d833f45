//! One source made ready to store: its captions found and keyed, then the marked ones
//! extracted, whole or a part at a time.

use cairn_extract::Extractor;
use cairn_model::Document;
use cairn_store::{NewOccurrence, NewSource};
use rayon::prelude::*;

/// Captions of one source from which its extraction runs on several threads.
const PARALLEL_CAPTIONS: usize = 64;

/// A text met for the first time: its exact key, near-duplicate features, and its
/// probe against the representatives published when it was read.
pub(crate) type Fresh = ([u8; 16], cairn_dedup::Features, cairn_dedup::Probe);

/// A source read for a batch, rendered, its captions found and keyed; extracted once
/// the batch knows which of its captions are new.
pub(crate) struct Keyed {
    /// The document, without its text (the captions' texts are in `segments`).
    pub doc: Document,
    text_len: usize,
    segments: Vec<cairn_model::Segment>,
    pub keys: Vec<[u8; 16]>,
    /// Which captions to extract: the first occurrence of a text not met before (all of
    /// a source with embedded fields, whose records differ from the text's alone).
    extract: Vec<bool>,
    warnings: Vec<String>,
}

/// What extracting a source's captions needs besides them.
struct Extracting<'a> {
    extractor: &'a Extractor,
    packer: Option<&'a cairn_store::RecordPacker>,
    embedded: Option<&'a cairn_model::Embedded>,
    /// Per caption of the source: whether to extract it whatever `fresh` says.
    extract: &'a [bool],
    /// Per caption of the source: whether it is a text met for the first time.
    fresh: &'a [bool],
    near: Option<&'a cairn_dedup::Prober>,
}

impl Extracting<'_> {
    /// The occurrences of the source's captions from number `first` on (given with their
    /// keys): extracts what is marked, computes the near-duplicate features of the new
    /// texts (when asked) with their probes, in order, and packs records (when given a
    /// packer).
    fn occurrences(
        &self,
        first: usize,
        segments: Vec<cairn_model::Segment>,
        keys: Vec<[u8; 16]>,
    ) -> (Vec<NewOccurrence>, Vec<Fresh>) {
        let one = |i: usize, seg: cairn_model::Segment, key: [u8; 16]| {
            let new = self.fresh[i];
            let record = (self.extract[i] || new)
                .then(|| self.extractor.caption_record(&seg.text, self.embedded));
            let features = self.near.filter(|_| new).map(|prober| {
                let f = cairn_dedup::features(&seg.text);
                let probe = prober.probe(&f);
                (key, f, probe)
            });
            let packed = self.packer.zip(record.as_ref()).map(|(p, r)| p.pack(r));
            let occurrence = NewOccurrence {
                key,
                span: seg.span,
                text: seg.text,
                record,
                packed,
            };
            (occurrence, features)
        };
        // A source with many captions (a long text file, a big gallery) is worked on by
        // every thread, in order: the batch's sources alone would leave one thread on it.
        // One with fewer stays on its thread in one piece.
        let (occurrences, features): (Vec<NewOccurrence>, Vec<Option<Fresh>>) = segments
            .into_par_iter()
            .zip(keys)
            .enumerate()
            .with_min_len(PARALLEL_CAPTIONS)
            .map(|(i, (seg, key))| one(first + i, seg, key))
            .unzip();
        (occurrences, features.into_iter().flatten().collect())
    }
}

/// A part of a source with more captions than
/// [`Options::part_captions`](crate::Options::part_captions): the first carries the
/// source with its first captions, the next ones more of its captions; the writer stores
/// them all in one transaction.
pub(crate) struct Part {
    pub source: Option<Box<NewSource>>,
    pub occurrences: Vec<NewOccurrence>,
    /// The new texts' near-duplicate features, in order.
    pub fresh: Vec<Fresh>,
    /// Captions in the whole source.
    pub captions: usize,
    pub last: bool,
}

impl Keyed {
    pub fn new(mut doc: Document) -> Self {
        let text = std::mem::take(&mut doc.text);
        let (segments, warnings) = cairn_extract::document_segments(doc.segments.take(), &text);
        let keys = segments
            .iter()
            .map(|s| cairn_dedup::exact_key(&s.text).to_bytes())
            .collect();
        let extract = vec![doc.embedded.is_some(); segments.len()];
        Keyed {
            doc,
            text_len: text.len(),
            segments,
            keys,
            extract,
            warnings,
        }
    }

    /// The source to store, with `occurrences`; its bytes packed when given a packer.
    fn source(
        doc: Document,
        text_len: usize,
        too_long: Vec<String>,
        packer: Option<&cairn_store::RecordPacker>,
        occurrences: Vec<NewOccurrence>,
    ) -> NewSource {
        let mut warnings = doc.warnings;
        warnings.extend(too_long);
        let packed = packer.and_then(|_| cairn_store::pack(&doc.bytes).ok());
        NewSource {
            uri: doc.uri,
            kind: doc.kind,
            sha256: doc.sha256,
            encoding: doc.encoding,
            text_len,
            bytes: doc.bytes,
            packed,
            warnings,
            origin: doc.origin,
            occurrences,
        }
    }

    /// Extracts what is marked, computes the near-duplicate features of the new texts
    /// (when asked) and packs records and bytes (when given a packer).
    pub fn finish(
        self,
        extractor: &Extractor,
        packer: Option<&cairn_store::RecordPacker>,
        fresh: &[bool],
        near: Option<&cairn_dedup::Prober>,
    ) -> (NewSource, Vec<Fresh>) {
        let mut whole = None;
        self.finish_in_parts(usize::MAX, extractor, packer, fresh, near, &mut |part| {
            whole = Some(part);
            true
        });
        let whole = whole.expect("a source is at least one part");
        let source = whole.source.expect("a source's first part carries it");
        (*source, whole.fresh)
    }

    /// [`Keyed::finish`] a part of `size` captions at a time, each part given to `send`
    /// (which says whether to go on) once made: only a part's records are in memory.
    pub fn finish_in_parts(
        self,
        size: usize,
        extractor: &Extractor,
        packer: Option<&cairn_store::RecordPacker>,
        fresh: &[bool],
        near: Option<&cairn_dedup::Prober>,
        send: &mut dyn FnMut(Part) -> bool,
    ) -> bool {
        let Keyed {
            mut doc,
            text_len,
            segments,
            keys,
            extract,
            warnings,
        } = self;
        let captions = keys.len();
        let size = size.max(1);
        let embedded = doc.embedded.take();
        let extracting = Extracting {
            extractor,
            packer,
            embedded: embedded.as_ref(),
            extract: &extract,
            fresh,
            near,
        };
        let mut segments = segments.into_iter();
        let mut keys = keys.into_iter();
        let mut head = Some((doc, warnings));
        let mut first = 0;
        while first < captions || head.is_some() {
            let part_segments: Vec<_> = segments.by_ref().take(size).collect();
            let part_keys: Vec<_> = keys.by_ref().take(size).collect();
            let n = part_keys.len();
            let (occurrences, fresh) = extracting.occurrences(first, part_segments, part_keys);
            first += n;
            let last = first >= captions;
            let part = match head.take() {
                Some((doc, warnings)) => {
                    let source = Self::source(doc, text_len, warnings, packer, occurrences);
                    Part {
                        source: Some(Box::new(source)),
                        occurrences: Vec::new(),
                        fresh,
                        captions,
                        last,
                    }
                }
                None => Part {
                    source: None,
                    occurrences,
                    fresh,
                    captions,
                    last,
                },
            };
            if !send(part) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source made in parts gives, part after part, the occurrences and new texts'
    /// features it gives whole; the first part carries the source, the last says so.
    #[test]
    fn a_source_in_parts_is_the_source_whole() {
        let text = (0..23)
            .map(|i| {
                format!(
                    "Rescuers search the rubble in Douma, Syria, on day {}.",
                    i % 17
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        let doc = || {
            cairn_ingest::document_from_bytes(
                "file:///long.txt".into(),
                "long.txt",
                text.clone().into_bytes(),
            )
            .unwrap()
        };
        let extractor = Extractor::bundled();
        let index = cairn_dedup::NearIndex::new(cairn_dedup::DEFAULT_THRESHOLD);
        let prober = index.prober();
        let fresh: Vec<bool> = (0..23).map(|i| i < 17).collect();
        let (whole, whole_fresh) =
            Keyed::new(doc()).finish(&extractor, None, &fresh, Some(&prober));
        let mut parts = Vec::new();
        let sent = Keyed::new(doc()).finish_in_parts(
            5,
            &extractor,
            None,
            &fresh,
            Some(&prober),
            &mut |p| {
                parts.push(p);
                true
            },
        );
        assert!(sent);
        assert_eq!(parts.len(), 5);
        assert!(parts.iter().all(|p| p.captions == 23));
        let lasts: Vec<bool> = parts.iter().map(|p| p.last).collect();
        assert_eq!(lasts, [false, false, false, false, true]);
        let mut occurrences = Vec::new();
        let mut features = Vec::new();
        for (i, p) in parts.into_iter().enumerate() {
            assert_eq!(p.source.is_some(), i == 0);
            match p.source {
                Some(s) => {
                    assert_eq!(
                        (&s.uri, &s.sha256, s.text_len),
                        (&whole.uri, &whole.sha256, whole.text_len)
                    );
                    assert_eq!(s.bytes, whole.bytes);
                    occurrences.extend(s.occurrences);
                }
                None => occurrences.extend(p.occurrences),
            }
            features.extend(p.fresh);
        }
        let view = |o: &NewOccurrence| (o.key, o.span, o.text.clone(), o.record.clone());
        assert_eq!(
            occurrences.iter().map(view).collect::<Vec<_>>(),
            whole.occurrences.iter().map(view).collect::<Vec<_>>()
        );
        let keys = |f: &[Fresh]| f.iter().map(|(k, _, _)| *k).collect::<Vec<_>>();
        assert_eq!(keys(&features), keys(&whole_fresh));
        assert_eq!(features.len(), 17);
        // A `send` that says stop stops after that part.
        let mut n = 0;
        let sent =
            Keyed::new(doc()).finish_in_parts(5, &extractor, None, &fresh, None, &mut |_| {
                n += 1;
                n < 2
            });
        assert!(!sent);
        assert_eq!(n, 2);
    }

    /// A source with enough captions to be worked on in parallel gives each occurrence,
    /// in order, the record and key its caption has alone, and probes each new text once.
    #[test]
    fn a_source_of_many_captions_keeps_their_order() {
        let captions: Vec<String> = (0..3 * PARALLEL_CAPTIONS)
            .map(|i| {
                format!(
                    "Residents inspect a damaged building in Aleppo, Syria, on March {}, 2016, \
                     after strike number {i}. (Photo by Rami Qasim/AFP)",
                    1 + i % 28
                )
            })
            .collect();
        let text = captions.join("\n\n");
        let doc = cairn_ingest::document_from_bytes(
            "file:///many.txt".into(),
            "many.txt",
            text.into_bytes(),
        )
        .unwrap();
        let extractor = Extractor::bundled();
        let keyed = Keyed::new(doc);
        assert_eq!(keyed.keys.len(), captions.len());
        // Every other caption is new; the rest are taken for texts seen before.
        let fresh: Vec<bool> = (0..captions.len()).map(|i| i % 2 == 0).collect();
        let index = cairn_dedup::NearIndex::new(cairn_dedup::DEFAULT_THRESHOLD);
        let prober = index.prober();
        let (source, features) = keyed.finish(&extractor, None, &fresh, Some(&prober));
        assert_eq!(source.occurrences.len(), captions.len());
        let mut last_end = 0;
        for (i, (o, c)) in source.occurrences.iter().zip(&captions).enumerate() {
            assert_eq!(&o.text, c);
            assert_eq!(o.key, cairn_dedup::exact_key(c).to_bytes());
            assert!(o.span.start >= last_end);
            last_end = o.span.end;
            match &o.record {
                Some(r) => {
                    assert!(fresh[i]);
                    assert_eq!(r, &extractor.caption_record(c, None));
                }
                None => assert!(!fresh[i]),
            }
        }
        let keys: Vec<[u8; 16]> = features.iter().map(|(k, _, _)| *k).collect();
        let want: Vec<[u8; 16]> = captions
            .iter()
            .step_by(2)
            .map(|c| cairn_dedup::exact_key(c).to_bytes())
            .collect();
        assert_eq!(keys, want);
    }
}
