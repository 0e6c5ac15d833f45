//! The record filters `search` and `export` share, turned into the store's filters.

use anyhow::{Result, bail};
use cairn_gazetteer::Gazetteer;

/// Record filters shared by `search` and `export`.
#[derive(clap::Args, Debug, Default)]
pub struct FilterArgs {
    /// Agency or distributor (repeatable; alternatives).
    #[arg(long)]
    agency: Vec<String>,
    /// Photographer (repeatable).
    #[arg(long)]
    photographer: Vec<String>,
    /// Place: captions located in it or inside it (repeatable).
    #[arg(long)]
    place: Vec<String>,
    /// ISO 3166-1 alpha-2 country code of the location (repeatable).
    #[arg(long)]
    country: Vec<String>,
    /// Earliest date (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    from: Option<String>,
    /// Latest date (YYYY, YYYY-MM or YYYY-MM-DD).
    #[arg(long)]
    to: Option<String>,
    /// Event type (ACLED sub-event type, repeatable).
    #[arg(long)]
    event: Vec<String>,
    /// Language of the caption, ISO 639-1 (repeatable).
    #[arg(long)]
    lang: Vec<String>,
    /// At least this many killed.
    #[arg(long)]
    killed_min: Option<u32>,
    /// Bounding box west,south,east,north.
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 1,
        allow_negative_numbers = true
    )]
    bbox: Option<Vec<f64>>,
    /// Appeared in a source whose uri starts with this prefix (repeatable).
    #[arg(long, value_name = "URI_PREFIX")]
    source: Vec<String>,
    /// In this incident (its id, as `cairn incidents` lists it).
    #[arg(long, value_name = "ID")]
    incident: Option<i64>,
}

impl FilterArgs {
    pub fn to_filters(&self) -> Result<cairn_store::Filters> {
        // The gazetteer loads only when a place needs resolving.
        let place = if self.place.is_empty() {
            Vec::new()
        } else {
            cairn_gazetteer::place_paths(&Gazetteer::bundled(), &self.place)
                .map_err(|e| anyhow::anyhow!("{e} (see `cairn places NAME`)"))?
        };
        let bbox = match &self.bbox {
            Some(v) if v.len() == 4 => Some([v[0], v[1], v[2], v[3]]),
            Some(_) => bail!("--bbox takes west,south,east,north"),
            None => None,
        };
        Ok(cairn_store::Filters {
            agency: self.agency.clone(),
            photographer: self.photographer.clone(),
            place,
            country: self.country.clone(),
            event: self.event.clone(),
            lang: self.lang.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            killed_min: self.killed_min,
            bbox,
            source: self.source.clone(),
            review: Vec::new(),
            incident: self.incident,
        })
    }
}
