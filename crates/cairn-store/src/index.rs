//! The tantivy index: one document per caption, rebuilt from SQLite at will.
//!
//! Each commit carries a payload `v{SCHEMA}:{seq}` naming the last database batch it
//! reflects, so a writer that opens the archive after a crash indexes exactly the
//! captions changed since.

use std::path::{Path, PathBuf};

use tantivy::collector::{Count, TopDocs};
use tantivy::directory::MmapDirectory;
use tantivy::query::{AllQuery, Query, QueryParser};
use tantivy::schema::{
    Field, INDEXED, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use crate::{Error, Result};

/// Bumped when the index schema changes; an index of another version is rebuilt.
const SCHEMA_VERSION: u32 = 1;
const TOKENIZER: &str = "cairn";

#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    pub id: Field,
    pub text: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let id = b.add_u64_field("id", INDEXED | STORED | tantivy::schema::FAST);
    let text_opts = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let text = b.add_text_field("text", text_opts);
    (b.build(), Fields { id, text })
}

fn register_tokenizer(index: &Index) {
    let analyzer = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(60))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build();
    index.tokenizers().register(TOKENIZER, analyzer);
}

pub(crate) struct SearchIndex {
    path: PathBuf,
    index: Index,
    reader: IndexReader,
    pub fields: Fields,
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchIndex")
            .field("path", &self.path)
            .finish()
    }
}

pub(crate) enum WriterError {
    Busy,
    Other(Error),
}

/// One caption as the index sees it.
pub(crate) struct IndexDoc {
    pub id: u64,
    pub text: String,
}

impl SearchIndex {
    fn err(&self, e: impl std::fmt::Display) -> Error {
        Error::Index {
            path: self.path.clone(),
            message: e.to_string(),
        }
    }

    /// Opens the index in `path`, creating it (or re-creating it, when its schema is
    /// stale or it is unreadable) as an empty index that the next sync fills.
    pub fn open_or_create(path: &Path) -> Result<Self> {
        let (schema, fields) = schema();
        let mk_err = |e: &dyn std::fmt::Display| Error::Index {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let open = || -> tantivy::Result<Index> {
            let dir = MmapDirectory::open(path)?;
            Index::open_or_create(dir, schema.clone())
        };
        let index = match open() {
            Ok(i) => i,
            Err(_) => {
                // The index is only a cache of the database: start it again.
                std::fs::remove_dir_all(path).map_err(|source| Error::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
                std::fs::create_dir_all(path).map_err(|source| Error::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
                open().map_err(|e| mk_err(&e))?
            }
        };
        Self::finish(path, index, fields)
    }

    /// Opens an index that must exist (readers never create one).
    pub fn open_existing(path: &Path) -> Result<Self> {
        let (_, fields) = schema();
        let index = Index::open_in_dir(path).map_err(|e| Error::Index {
            path: path.to_path_buf(),
            message: format!("{e} (run `cairn reindex` to rebuild it)"),
        })?;
        Self::finish(path, index, fields)
    }

    fn finish(path: &Path, index: Index, fields: Fields) -> Result<Self> {
        register_tokenizer(&index);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::OnCommitWithDelay)
            .try_into()
            .map_err(|e: tantivy::TantivyError| Error::Index {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
        Ok(SearchIndex {
            path: path.to_path_buf(),
            index,
            reader,
            fields,
        })
    }

    pub fn writer(&self) -> Result<IndexWriter, WriterError> {
        match self
            .index
            .writer_with_num_threads::<TantivyDocument>(1, 64 * 1024 * 1024)
        {
            Ok(w) => Ok(w),
            Err(tantivy::TantivyError::LockFailure(..)) => Err(WriterError::Busy),
            Err(e) => Err(WriterError::Other(self.err(e))),
        }
    }

    /// The database batch the last commit reflects, or `None` when the index must be
    /// rebuilt from scratch (new, or written by another schema version).
    pub fn indexed_seq(&self) -> Result<Option<i64>> {
        let metas = self.index.load_metas().map_err(|e| self.err(e))?;
        let Some(payload) = metas.payload else {
            return Ok(None);
        };
        let Some((v, seq)) = payload.split_once(':') else {
            return Ok(None);
        };
        if v != format!("v{SCHEMA_VERSION}") {
            return Ok(None);
        }
        Ok(seq.parse().ok())
    }

    pub fn add(&self, w: &IndexWriter, doc: IndexDoc) -> Result<()> {
        w.delete_term(Term::from_field_u64(self.fields.id, doc.id));
        let mut d = TantivyDocument::default();
        d.add_u64(self.fields.id, doc.id);
        d.add_text(self.fields.text, &doc.text);
        w.add_document(d).map_err(|e| self.err(e))?;
        Ok(())
    }

    pub fn commit(&self, w: &mut IndexWriter, seq: i64) -> Result<()> {
        let mut prepared = w.prepare_commit().map_err(|e| self.err(e))?;
        prepared.set_payload(&format!("v{SCHEMA_VERSION}:{seq}"));
        prepared.commit().map_err(|e| self.err(e))?;
        self.reader.reload().map_err(|e| self.err(e))?;
        Ok(())
    }

    pub fn parse(&self, query: &str) -> Result<Box<dyn Query>> {
        if query.trim().is_empty() {
            return Ok(Box::new(AllQuery));
        }
        let mut parser = QueryParser::for_index(&self.index, vec![self.fields.text]);
        parser.set_conjunction_by_default();
        parser
            .parse_query(query)
            .map_err(|e| Error::Query(format!("{query:?}: {e}")))
    }

    /// Caption ids of the best matches, and the number of all matches.
    pub fn search(
        &self,
        query: &dyn Query,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<(u64, f32)>, usize)> {
        self.reader.reload().map_err(|e| self.err(e))?;
        let searcher = self.reader.searcher();
        let top = TopDocs::with_limit(limit.max(1))
            .and_offset(offset)
            .order_by_score();
        let (docs, total) = searcher
            .search(query, &(top, Count))
            .map_err(|e| self.err(e))?;
        let mut out = Vec::with_capacity(docs.len());
        if limit == 0 {
            return Ok((out, total));
        }
        for (score, addr) in docs {
            let doc: TantivyDocument = searcher.doc(addr).map_err(|e| self.err(e))?;
            if let Some(id) = doc.get_first(self.fields.id).and_then(|v| v.as_u64()) {
                out.push((id, score));
            }
        }
        Ok((out, total))
    }

    /// Number of live documents.
    pub fn num_docs(&self) -> Result<u64> {
        self.reader.reload().map_err(|e| self.err(e))?;
        Ok(self.reader.searcher().num_docs())
    }

    /// Every indexed caption id (for checks).
    pub fn all_ids(&self) -> Result<Vec<u64>> {
        self.reader.reload().map_err(|e| self.err(e))?;
        let searcher = self.reader.searcher();
        let mut ids = Vec::new();
        for seg in searcher.segment_readers() {
            let col = seg.fast_fields().u64("id").map_err(|e| self.err(e))?;
            for doc in seg.doc_ids_alive() {
                if let Some(v) = col.first(doc) {
                    ids.push(v);
                }
            }
        }
        ids.sort_unstable();
        Ok(ids)
    }
}
