//! Captions embedded in photographs: IPTC-IIM (in JPEG's Photoshop APP13 block or
//! TIFF tag 33723) and XMP (JPEG APP1, PNG iTXt, WebP XMP chunk, TIFF tag 700). The
//! containers are read with `img-parts` (JPEG, PNG, WebP) and a small TIFF directory
//! walk; the IIM and XMP field mapping is cairn's.

use std::collections::BTreeMap;

use quick_xml::events::Event;

pub use cairn_model::Embedded;

/// Fills fields of `e` still empty from `other` (IIM first, then XMP).
fn fill(e: &mut Embedded, other: Embedded) {
    {
        macro_rules! take {
            ($f:ident) => {
                if e.$f.is_none() {
                    e.$f = other.$f;
                }
            };
        }
        take!(caption);
        take!(credit);
        take!(source);
        take!(date);
        take!(city);
        take!(state);
        take!(country);
        take!(country_code);
        if e.byline.is_empty() {
            e.byline = other.byline;
        }
    }
}

fn text_of(v: &[u8]) -> String {
    cairn_model::fold_whitespace(&String::from_utf8_lossy(v))
}

/// IPTC-IIM datasets of record 2.
pub fn parse_iim(data: &[u8]) -> Embedded {
    let mut e = Embedded::default();
    let mut i = 0;
    while i + 5 <= data.len() {
        if data[i] != 0x1c {
            // Not a tag marker: the block is damaged from here.
            break;
        }
        let (record, dataset) = (data[i + 1], data[i + 2]);
        let mut len = u16::from_be_bytes([data[i + 3], data[i + 4]]) as usize;
        let mut start = i + 5;
        if len & 0x8000 != 0 {
            // Extended length: the next (len & 0x7fff) bytes hold it.
            let n = len & 0x7fff;
            if n > 4 || start + n > data.len() {
                break;
            }
            len = data[start..start + n]
                .iter()
                .fold(0usize, |a, &b| (a << 8) | b as usize);
            start += n;
        }
        let Some(v) = data.get(start..start.saturating_add(len)) else {
            break;
        };
        if record == 2 {
            let s = text_of(v);
            match dataset {
                120 => e.caption = Some(s),
                80 => e.byline.push(s),
                110 => e.credit = Some(s),
                115 => e.source = Some(s),
                // Date Created is CCYYMMDD; anything else is not a date.
                55 if v.len() == 8 && v.iter().all(u8::is_ascii_digit) => {
                    e.date = Some(format!("{}-{}-{}", &s[..4], &s[4..6], &s[6..8]))
                }
                90 => e.city = Some(s),
                95 => e.state = Some(s),
                100 => e.country_code = Some(s),
                101 => e.country = Some(s),
                _ => {}
            }
        }
        i = start + len;
    }
    e.byline.retain(|b| !b.is_empty());
    e
}

/// The IIM block inside a Photoshop image resource block (resource 0x0404).
fn iim_in_photoshop(data: &[u8]) -> Option<&[u8]> {
    let mut i = data
        .windows(14)
        .position(|w| w == b"Photoshop 3.0\0")
        .map(|p| p + 14)
        .unwrap_or(0);
    while i + 12 <= data.len() {
        if &data[i..i + 4] != b"8BIM" {
            return None;
        }
        let id = u16::from_be_bytes([data[i + 4], data[i + 5]]);
        let name_len = data[i + 6] as usize;
        let mut j = i + 7 + name_len;
        if (name_len + 1) % 2 == 1 {
            j += 1;
        }
        let size = u32::from_be_bytes(data.get(j..j + 4)?.try_into().ok()?) as usize;
        let start = j + 4;
        let block = data.get(start..start.checked_add(size)?)?;
        if id == 0x0404 {
            return Some(block);
        }
        i = start + size + (size % 2);
    }
    None
}

/// XMP fields cairn maps (any namespace prefix; matched on local names).
pub fn parse_xmp(xml: &[u8]) -> Embedded {
    let values = xmp_values(xml);
    let one = |k: &str| {
        values
            .get(k)
            .and_then(|v| v.first())
            .map(|s| cairn_model::fold_whitespace(s))
    };
    Embedded {
        caption: one("description"),
        byline: values.get("creator").cloned().unwrap_or_default(),
        credit: one("Credit"),
        source: one("Source"),
        date: one("DateCreated").map(|d| d.chars().take(10).collect()),
        city: one("City").or_else(|| one("Location.City")),
        state: one("State").or_else(|| one("Location.ProvinceState")),
        country: one("Country").or_else(|| one("Location.CountryName")),
        country_code: one("CountryCode").or_else(|| one("Location.CountryCode")),
    }
}

/// Every property's values in an XMP packet, by local name (`Location.` in front of
/// those inside a location structure).
fn xmp_values(xml: &[u8]) -> BTreeMap<String, Vec<String>> {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut path: Vec<String> = Vec::new();
    let mut buf = Vec::new();
    let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut depth_guard = 0usize;
    // Text of the innermost open element, built from text and character references.
    let mut acc = String::new();
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(t)) => {
                depth_guard += 1;
                if depth_guard > 256 {
                    break;
                }
                path.push(local_name(t.name().as_ref()));
                // Simple properties are often attributes of rdf:Description.
                push_attrs(&t, &mut values);
                acc.clear();
            }
            Ok(Event::Empty(t)) => push_attrs(&t, &mut values),
            Ok(Event::Text(t)) => {
                if let Ok(v) = t.decode() {
                    acc.push_str(&v);
                }
            }
            Ok(Event::GeneralRef(r)) => {
                if let Some(c) = general_ref_char(&String::from_utf8_lossy(r.as_ref())) {
                    acc.push(c);
                }
            }
            Ok(Event::End(_)) => {
                depth_guard = depth_guard.saturating_sub(1);
                end_property(&path, std::mem::take(&mut acc), &mut values);
                path.pop();
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
        buf.clear();
    }
    values
}

/// A qualified name's local part.
fn local_name(q: &[u8]) -> String {
    let s = String::from_utf8_lossy(q);
    s.rsplit(':').next().unwrap_or("").to_string()
}

/// An element's attributes as property values.
fn push_attrs(t: &quick_xml::events::BytesStart<'_>, values: &mut BTreeMap<String, Vec<String>>) {
    for a in t.attributes().flatten() {
        let key = local_name(a.key.as_ref());
        if let Ok(v) = a.unescape_value() {
            values.entry(key).or_default().push(v.into_owned());
        }
    }
}

/// The character an entity or character reference stands for.
fn general_ref_char(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        n => n
            .strip_prefix("#x")
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .or_else(|| n.strip_prefix('#').and_then(|d| d.parse().ok()))
            .and_then(char::from_u32),
    }
}

/// Files the text `v` of the element that ends at `path` under its property.
fn end_property(path: &[String], v: String, values: &mut BTreeMap<String, Vec<String>>) {
    if v.trim().is_empty() {
        return;
    }
    // The property is the nearest ancestor that is not rdf plumbing.
    if let Some(prop) = path
        .iter()
        .rev()
        .find(|p| !matches!(p.as_str(), "li" | "Alt" | "Seq" | "Bag"))
    {
        // Inside LocationShown / LocationCreated the names repeat: keep
        // the structure's name in front.
        let key = if path
            .iter()
            .any(|p| p == "LocationShown" || p == "LocationCreated")
        {
            format!("Location.{prop}")
        } else {
            prop.clone()
        };
        values.entry(key).or_default().push(v);
    }
}

/// TIFF tag values (IPTC 33723, XMP 700) from the first directory.
fn tiff_tags(data: &[u8]) -> (Option<&[u8]>, Option<&[u8]>) {
    let le = data.starts_with(b"II");
    let u16_at = |i: usize| -> Option<u16> {
        let b: [u8; 2] = data.get(i..i + 2)?.try_into().ok()?;
        Some(if le {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        })
    };
    let u32_at = |i: usize| -> Option<u32> {
        let b: [u8; 4] = data.get(i..i + 4)?.try_into().ok()?;
        Some(if le {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    };
    let (mut iptc, mut xmp) = (None, None);
    let Some(ifd) = u32_at(4).map(|v| v as usize) else {
        return (None, None);
    };
    let n = u16_at(ifd).unwrap_or(0) as usize;
    for k in 0..n.min(4096) {
        let at = ifd + 2 + k * 12;
        let (Some(tag), Some(typ), Some(count)) = (u16_at(at), u16_at(at + 2), u32_at(at + 4))
        else {
            break;
        };
        let unit = match typ {
            1 | 2 | 6 | 7 => 1,
            3 | 8 => 2,
            4 | 9 | 11 | 13 => 4,
            _ => 8,
        };
        let len = (count as usize).saturating_mul(unit);
        let value = if len <= 4 {
            data.get(at + 8..at + 8 + len)
        } else {
            u32_at(at + 8)
                .and_then(|off| data.get(off as usize..(off as usize).saturating_add(len)))
        };
        match tag {
            33723 => iptc = value,
            700 => xmp = value,
            _ => {}
        }
    }
    (iptc, xmp)
}

/// The embedded caption fields of an image (`None` when it carries none).
pub fn read_image(format: crate::Format, data: &[u8]) -> Result<Option<Embedded>, String> {
    let bytes = img_parts::Bytes::copy_from_slice(data);
    let (iim, xmp): (Option<Vec<u8>>, Option<Vec<u8>>) = match format {
        crate::Format::Jpeg => {
            let jpeg = img_parts::jpeg::Jpeg::from_bytes(bytes)
                .map_err(|e| format!("not a readable JPEG: {e}"))?;
            let mut iim = None;
            let mut xmp = None;
            for seg in jpeg.segments() {
                let c = seg.contents();
                if seg.marker() == img_parts::jpeg::markers::APP13 {
                    iim = iim.or_else(|| iim_in_photoshop(c).map(<[u8]>::to_vec));
                } else if seg.marker() == img_parts::jpeg::markers::APP1
                    && c.starts_with(b"http://ns.adobe.com/xap/1.0/\0")
                {
                    xmp = Some(c[29..].to_vec());
                }
            }
            (iim, xmp)
        }
        crate::Format::Png => {
            let png = img_parts::png::Png::from_bytes(bytes)
                .map_err(|e| format!("not a readable PNG: {e}"))?;
            let xmp = png.chunks().iter().find_map(|c| {
                let d = c.contents();
                (c.kind() == *b"iTXt" && d.starts_with(b"XML:com.adobe.xmp\0"))
                    .then(|| {
                        // keyword\0 compression-flag compression-method lang\0 translated\0 text
                        let mut parts = d.splitn(2, |&b| b == 0);
                        parts.next();
                        let rest = parts.next()?;
                        let rest = rest.get(2..)?;
                        let mut it = rest.splitn(3, |&b| b == 0);
                        it.next();
                        it.next();
                        it.next().map(<[u8]>::to_vec)
                    })
                    .flatten()
            });
            (None, xmp)
        }
        crate::Format::Webp => {
            let webp = img_parts::webp::WebP::from_bytes(bytes)
                .map_err(|e| format!("not a readable WebP: {e}"))?;
            let xmp = webp
                .chunk_by_id(*b"XMP ")
                .map(|c| c.content().data().map(|d| d.to_vec()))
                .and_then(|d| d);
            (None, xmp)
        }
        crate::Format::Tiff => {
            let (i, x) = tiff_tags(data);
            (i.map(<[u8]>::to_vec), x.map(<[u8]>::to_vec))
        }
        _ => return Ok(None),
    };
    let mut e = iim.as_deref().map(parse_iim).unwrap_or_default();
    if let Some(x) = xmp {
        fill(&mut e, parse_xmp(&x));
    }
    Ok((e != Embedded::default()).then_some(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iim_datasets_and_damage() {
        let mut d = Vec::new();
        for (ds, v) in [
            (120u8, "A boy in Aleppo."),
            (80, "Jane Roe"),
            (55, "20161106"),
        ] {
            d.extend_from_slice(&[0x1c, 2, ds]);
            d.extend_from_slice(&(v.len() as u16).to_be_bytes());
            d.extend_from_slice(v.as_bytes());
        }
        let e = parse_iim(&d);
        assert_eq!(e.caption.as_deref(), Some("A boy in Aleppo."));
        assert_eq!(e.byline, ["Jane Roe"]);
        assert_eq!(e.date.as_deref(), Some("2016-11-06"));
        // A length running past the end stops reading, no panic.
        let mut bad = d.clone();
        bad.extend_from_slice(&[0x1c, 2, 90, 0xff, 0xff]);
        assert_eq!(parse_iim(&bad).city, None);
        assert_eq!(parse_iim(&[0x1c, 2]), Embedded::default());
        // A Date Created that is not eight digits is no date: neither bytes that are not
        // text (found by fuzzing: a panic slicing inside a character) nor another form.
        let odd = [0x1c, 2, 55, 0, 8, 0x80, 0xff, 8, 8, 8, b'2', 0, 0];
        assert_eq!(parse_iim(&odd).date, None);
        assert_eq!(parse_iim(b"\x1c\x02\x37\x00\x082016-1-6").date, None);
    }

    #[test]
    fn xmp_fields() {
        let x = br#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description photoshop:Credit="AFP" photoshop:DateCreated="2016-11-06T10:00:00"
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
          <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Rescuers in Harasta &amp; Douma.</rdf:li></rdf:Alt></dc:description>
          <dc:creator><rdf:Seq><rdf:li>Sameer Al-Doumy</rdf:li></rdf:Seq></dc:creator>
          </rdf:Description></rdf:RDF></x:xmpmeta>"#;
        let e = parse_xmp(x);
        assert_eq!(e.caption.as_deref(), Some("Rescuers in Harasta & Douma."));
        assert_eq!(e.credit.as_deref(), Some("AFP"));
        assert_eq!(e.byline, ["Sameer Al-Doumy"]);
        assert_eq!(e.date.as_deref(), Some("2016-11-06"));
    }
}
