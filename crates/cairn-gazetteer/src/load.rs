//! Loading: the bundled data (or an archive's own) parsed into entries and name indexes.

use super::*;

/// One parsed line of the GeoNames file.
/// Each kind of line carries its `|`-separated alternate names (possibly empty).
enum Line<'a> {
    Admin1(Entry, &'a str),
    Country(Entry, &'a str),
    Place(Entry, &'a str),
}

fn parse_line(n: usize, line: &str) -> Result<Line<'_>, LoadError> {
    let f: Vec<&str> = line.split('\t').collect();
    let bad = || LoadError(format!("geonames line {}: malformed", n + 1));
    let num = |s: &str| s.parse::<f64>().map_err(|_| bad());
    let entry =
        |id: String, name: &str, kind, lat: &str, lon: &str, cc: &str, code: &str, pop: u64| {
            Ok::<_, LoadError>(Entry {
                id,
                name: name.to_string(),
                kind,
                lat: num(lat)?,
                lon: num(lon)?,
                country: cc.to_string(),
                admin1_code: code.to_string(),
                population: pop,
                parent: None,
                folded: fold(name),
            })
        };
    match f.first().copied() {
        Some("#A") if f.len() >= 5 => {
            let (cc, code) = f[1].split_once('.').ok_or_else(bad)?;
            let id = format!("geonames-admin1:{}", f[1]);
            let e = entry(id, f[2], PlaceKind::Admin1, f[3], f[4], cc, code, 0)?;
            Ok(Line::Admin1(e, f.get(5).copied().unwrap_or("")))
        }
        Some("#C") if f.len() >= 6 => {
            let id = format!("iso3166:{}", f[1]);
            let pop = f[5].parse().unwrap_or(0);
            let e = entry(id, f[2], PlaceKind::Country, f[3], f[4], f[1], "", pop)?;
            Ok(Line::Country(e, f.get(6).copied().unwrap_or("")))
        }
        Some(_) if f.len() >= 9 => {
            let id = format!("geonames:{}", f[0]);
            let pop = f[7].parse().unwrap_or(0);
            // Places are towns unless they say otherwise (districts say `admin2`).
            let kind = PlaceKind::parse(f[2]).ok_or_else(bad)?;
            let e = entry(id, f[1], kind, f[3], f[4], f[5], f[6], pop)?;
            Ok(Line::Place(e, f[8]))
        }
        _ => Err(bad()),
    }
}

impl Gazetteer {
    /// The bundled gazetteer, loaded once per process and kept to its end.
    pub fn bundled() -> Arc<Gazetteer> {
        static G: OnceLock<Arc<Gazetteer>> = OnceLock::new();
        G.get_or_init(|| Arc::new(Gazetteer::load_bundled()))
            .clone()
    }

    /// A copy of the bundled gazetteer of its own, given back to the allocator when
    /// dropped (its data, and what the allocator kept of its load): for a run that has
    /// work left after its last place is resolved, such as the end of an ingest, where
    /// that memory is worth more than the time each call takes to load it again.
    pub fn load_bundled() -> Gazetteer {
        Gazetteer::from_data(GEONAMES, SUPPLEMENT).expect("bundled gazetteer is valid")
    }

    /// The gazetteer of the archive in `data_dir`: the bundled one (shared) when the
    /// archive has no places of its own ([`ARCHIVE_FILE`], written by `cairn gazetteer
    /// import`), else the bundled places with the archive's, loaded for the caller.
    pub fn for_archive(data_dir: &Path) -> Result<Arc<Gazetteer>, LoadError> {
        match Self::archive_part(data_dir)? {
            None => Ok(Self::bundled()),
            Some(own) => Ok(Arc::new(Self::with_part(&own)?)),
        }
    }

    /// As [`Gazetteer::for_archive`], always a copy of its own (see
    /// [`Gazetteer::load_bundled`]).
    pub fn load_for_archive(data_dir: &Path) -> Result<Gazetteer, LoadError> {
        match Self::archive_part(data_dir)? {
            None => Ok(Self::load_bundled()),
            Some(own) => Self::with_part(&own),
        }
    }

    /// The archive's own places file, if it has one.
    fn archive_part(data_dir: &Path) -> Result<Option<Vec<u8>>, LoadError> {
        let path = data_dir.join(ARCHIVE_FILE);
        match std::fs::read(&path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(LoadError(format!("{}: {e}", path.display()))),
        }
    }

    fn with_part(own: &[u8]) -> Result<Gazetteer, LoadError> {
        Self::from_parts(&[GEONAMES, own], SUPPLEMENT).map_err(|e| {
            LoadError(format!(
                "{ARCHIVE_FILE}: {} (`cairn gazetteer reset` drops the imported places)",
                e.0
            ))
        })
    }

    /// Builds a gazetteer from a zstd-compressed GeoNames TSV and a supplement.
    pub fn from_data(geonames_zst: &[u8], supplement: &str) -> Result<Self, LoadError> {
        Self::from_parts(&[geonames_zst], supplement)
    }

    /// Builds a gazetteer from several zstd-compressed files in the bundle's format (the
    /// bundled one, then an archive's own places) and a supplement.
    pub fn from_parts(parts_zst: &[&[u8]], supplement: &str) -> Result<Self, LoadError> {
        let mut texts = Vec::with_capacity(parts_zst.len());
        for part in parts_zst {
            let raw = zstd::stream::decode_all(*part).map_err(|e| LoadError(e.to_string()))?;
            texts.push(String::from_utf8(raw).map_err(|e| LoadError(e.to_string()))?);
        }
        let lines: Vec<&str> = texts.iter().flat_map(|t| t.lines()).collect();
        let parsed: Vec<Line<'_>> = lines
            .par_iter()
            .enumerate()
            .map(|(n, l)| parse_line(n, l))
            .collect::<Result<_, _>>()?;
        let mut g = Gazetteer {
            entries: Vec::with_capacity(parsed.len() + 64),
            codes: Vec::with_capacity(parsed.len() + 64),
            ..Default::default()
        };
        // Names other than the entries' own, to index with them: the towns' alternate
        // names (each town's `|`-separated list, a slice of the text) and the
        // supplement's. Kept as slices rather than copies: the copies, 1.4 million small
        // strings, doubled the memory a load took, and the allocator kept much of it.
        let mut names: Vec<(PlaceId, Cow<'_, str>)> = Vec::with_capacity(parsed.len() + 1024);
        for line in parsed {
            match line {
                Line::Admin1(e, alternates) => {
                    let (cc, code) = (e.country.clone(), e.admin1_code.clone());
                    let id = g.push_entry(e);
                    g.admin1.entry(cc).or_default().insert(code, id);
                    if !alternates.is_empty() {
                        names.push((id, Cow::Borrowed(alternates)));
                    }
                }
                Line::Country(e, alternates) => {
                    let cc = e.country.clone();
                    let id = g.push_entry(e);
                    g.countries.insert(cc, id);
                    if !alternates.is_empty() {
                        names.push((id, Cow::Borrowed(alternates)));
                    }
                }
                Line::Place(e, alternates) => {
                    let id = g.push_entry(e);
                    if !alternates.is_empty() {
                        names.push((id, Cow::Borrowed(alternates)));
                    }
                }
            }
        }
        g.load_supplement(supplement, &mut names)?;
        g.add_common_country_names(&mut names);
        // Every entry's own name (its `folded` is already made), then the other names.
        let own = g
            .entries
            .par_iter()
            .enumerate()
            .map(|(id, e)| (id as PlaceId, Cow::Borrowed(e.folded.as_str())));
        let others = names.par_iter().flat_map_iter(|(id, list)| {
            list.split('|')
                .filter(|a| !a.is_empty())
                .map(move |a| (*id, Cow::Owned(fold(a))))
        });
        type Pairs = Vec<(u64, PlaceId)>;
        let (fold_pairs, skeleton_pairs): (Pairs, Pairs) = own
            .chain(others)
            .filter(|(_, f)| !f.is_empty())
            .map(|(id, f)| ((key_hash(&f), id), (key_hash(&skeleton(&f)), id)))
            .unzip();
        drop(names);
        g.country_keys = fold_pairs
            .iter()
            .filter(|&&(_, id)| g.entries[id as usize].kind == PlaceKind::Country)
            .map(|&(h, _)| h)
            .collect();
        let (by_fold, by_skeleton) = rayon::join(
            || NameIndex::build(fold_pairs),
            || NameIndex::build(skeleton_pairs),
        );
        g.by_fold = by_fold;
        g.by_skeleton = by_skeleton;
        Ok(g)
    }

    /// Adds an entry and queues its name for indexing.
    fn push_entry(&mut self, e: Entry) -> PlaceId {
        let id = self.entries.len() as PlaceId;
        // Geonames ids are many and rarely looked up: `source_id` scans for them.
        if !e.id.starts_with("geonames:") {
            self.by_source_id.insert(e.id.clone(), id);
        }
        self.codes
            .push(<[u8; 2]>::try_from(e.country.as_bytes()).unwrap_or([0, 0]));
        self.entries.push(e);
        id
    }

    fn load_supplement<'a>(
        &mut self,
        text: &'a str,
        names: &mut Vec<(PlaceId, Cow<'a, str>)>,
    ) -> Result<(), LoadError> {
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('\t').map(str::trim).collect();
            let bad = |what: &str| LoadError(format!("supplement line {}: {what}", n + 1));
            match f[0] {
                "A" if f.len() >= 3 => {
                    let (cc, code) = f[1].split_once('.').ok_or_else(|| bad("admin1 key"))?;
                    let id = self
                        .admin1_unit(cc, code)
                        .ok_or_else(|| bad("unknown admin1"))?;
                    let e = &mut self.entries[id as usize];
                    // The GeoNames name stays a name of the unit.
                    let was = std::mem::replace(&mut e.name, f[2].to_string());
                    e.folded = fold(f[2]);
                    names.push((id, Cow::Owned(was)));
                    names.push((id, Cow::Borrowed(f.get(3).copied().unwrap_or(""))));
                }
                "C" if f.len() >= 3 => {
                    let id = self.country(f[1]).ok_or_else(|| bad("unknown country"))?;
                    names.push((id, Cow::Borrowed(f[2])));
                }
                "P" if f.len() >= 9 => {
                    let kind = PlaceKind::parse(f[3]).ok_or_else(|| bad("kind"))?;
                    let lat = f[4].parse().map_err(|_| bad("lat"))?;
                    let lon = f[5].parse().map_err(|_| bad("lon"))?;
                    let parent = if f[8].is_empty() {
                        None
                    } else if f[8].chars().all(|c| c.is_ascii_digit()) {
                        Some(
                            self.source_id(&format!("geonames:{}", f[8]))
                                .ok_or_else(|| bad("unknown parent"))?,
                        )
                    } else {
                        Some(
                            self.source_id(&format!("cairn:{}", f[8]))
                                .ok_or_else(|| bad("unknown parent"))?,
                        )
                    };
                    let id = self.push_entry(Entry {
                        id: format!("cairn:{}", f[1]),
                        name: f[2].to_string(),
                        kind,
                        lat,
                        lon,
                        country: f[6].to_string(),
                        admin1_code: f[7].to_string(),
                        population: 0,
                        parent,
                        folded: fold(f[2]),
                    });
                    names.push((id, Cow::Borrowed(f.get(9).copied().unwrap_or(""))));
                }
                _ => return Err(bad("unknown line type")),
            }
        }
        Ok(())
    }

    fn add_common_country_names(&mut self, names: &mut Vec<(PlaceId, Cow<'_, str>)>) {
        // Short forms captions use for countries whose GeoNames name is longer.
        const SHORT: &[(&str, &str)] = &[
            ("US", "U.S."),
            ("US", "USA"),
            ("US", "United States of America"),
            ("GB", "Britain"),
            ("GB", "U.K."),
            ("GB", "UK"),
            ("GB", "England"),
            ("RU", "Russian Federation"),
            ("KR", "South Korea"),
            ("KP", "North Korea"),
            ("CD", "Congo"),
            ("CD", "Democratic Republic of Congo"),
            ("CI", "Ivory Coast"),
            ("PS", "Palestinian Territories"),
            ("PS", "Gaza"),
            ("MM", "Burma"),
            ("CZ", "Czech Republic"),
            ("VA", "Vatican"),
        ];
        for (cc, name) in SHORT {
            if let Some(&id) = self.countries.get(*cc) {
                names.push((id, Cow::Borrowed(*name)));
            }
        }
    }
}
