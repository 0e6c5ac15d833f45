//! IPTC XMP sidecars: one `.xmp` per caption, as ExifTool and photo tools read them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cairn_gazetteer::{Gazetteer, reader_name};
use cairn_model::{Credit, Place, PlaceKind};
use cairn_store::ExportedCaption;

use crate::{Error, country_name};

/// Text for an XML element or a double-quoted attribute: markup characters escaped,
/// characters XML 1.0 forbids dropped.
fn xml(s: &str) -> String {
    let clean: String = s
        .chars()
        .filter(|&ch| {
            matches!(ch, '\t' | '\n' | '\r') || (ch >= ' ' && ch != '\u{FFFE}' && ch != '\u{FFFF}')
        })
        .collect();
    html_escape::encode_double_quoted_attribute(&clean)
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
}

/// An XMP GPS coordinate (`DDD,MM.mmmmmmK`, as the EXIF-in-XMP mapping writes it).
fn xmp_gps(value: f64, positive: char, negative: char) -> String {
    let hemi = if value < 0.0 { negative } else { positive };
    let a = value.abs();
    let deg = a.trunc();
    let min = (a - deg) * 60.0;
    format!("{},{:.6}{}", deg as u32, min, hemi)
}

/// The IPTC XMP sidecar of one caption: dc:description, dc:creator,
/// photoshop:Credit/Source/DateCreated/City/State/Country, Iptc4xmpCore:CountryCode and
/// Iptc4xmpExt:LocationShown with its GPS position.
pub fn xmp(c: &ExportedCaption, g: &Gazetteer) -> String {
    let r = c.record.as_ref();
    let credit = r.and_then(|r| r.credit.as_ref());
    let loc = r.and_then(|r| r.location.as_ref());
    let country = loc
        .and_then(|l| l.country.as_deref())
        .map(|cc| (cc, country_name(g, cc)));
    let attrs = xmp_attrs(c, credit, loc, country.as_ref());
    let body = xmp_body(c, credit, loc, country.as_ref());
    format!(
        "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>
<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">
 <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">
  <rdf:Description rdf:about=\"\"
    xmlns:dc=\"http://purl.org/dc/elements/1.1/\"
    xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\"
    xmlns:Iptc4xmpCore=\"http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/\"
    xmlns:Iptc4xmpExt=\"http://iptc.org/std/Iptc4xmpExt/2008-02-29/\"
    xmlns:exif=\"http://ns.adobe.com/exif/1.0/\"{attrs}>{body}
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end=\"w\"?>
"
    )
}

/// The simple properties, written as attributes of the sidecar's rdf:Description.
fn xmp_attrs(
    c: &ExportedCaption,
    credit: Option<&Credit>,
    loc: Option<&Place>,
    country: Option<&(&str, String)>,
) -> String {
    let r = c.record.as_ref();
    let mut attrs = String::new();
    let mut attr = |name: &str, value: &str| {
        let _ = write!(attrs, "\n    {name}=\"{}\"", xml(value));
    };
    if let Some(credit) = credit {
        if let Some(agency) = credit.agency.as_ref().or(credit.distributor.as_ref()) {
            attr("photoshop:Credit", agency);
        }
        if let Some(d) = credit.distributor.as_ref().or(credit.agency.as_ref()) {
            attr("photoshop:Source", d);
        }
    }
    if let Some(d) = r.and_then(|r| r.date.as_ref()) {
        attr("photoshop:DateCreated", &d.value);
    }
    if let Some(l) = loc {
        if matches!(
            l.kind,
            PlaceKind::Town | PlaceKind::Neighbourhood | PlaceKind::Point
        ) {
            attr("photoshop:City", reader_name(&l.name, &l.text));
        }
        if let Some(a) = &l.admin1 {
            attr("photoshop:State", a);
        }
    }
    if let Some((cc, name)) = country {
        attr("photoshop:Country", name);
        attr("Iptc4xmpCore:CountryCode", cc);
    }
    attr(
        "photoshop:TransmissionReference",
        &format!("cairn:{}", c.id),
    );
    attrs
}

/// The structured properties, written as elements: description, creators, source
/// and the location shown.
fn xmp_body(
    c: &ExportedCaption,
    credit: Option<&Credit>,
    loc: Option<&Place>,
    country: Option<&(&str, String)>,
) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "\n   <dc:description>\n    <rdf:Alt>\n     <rdf:li xml:lang=\"x-default\">{}</rdf:li>\n    </rdf:Alt>\n   </dc:description>",
        xml(&c.text)
    );
    if let Some(credit) = credit.filter(|c| !c.photographers.is_empty()) {
        body.push_str("\n   <dc:creator>\n    <rdf:Seq>");
        for p in &credit.photographers {
            let _ = write!(body, "\n     <rdf:li>{}</rdf:li>", xml(p));
        }
        body.push_str("\n    </rdf:Seq>\n   </dc:creator>");
    }
    if !c.sources.is_empty() {
        // Where the caption was seen, as dc:source would name one page.
        let _ = write!(
            body,
            "\n   <dc:source>{}</dc:source>",
            xml(&c.sources[0].uri)
        );
    }
    if let Some(l) = loc {
        location_shown(&mut body, l, country);
    }
    body
}

/// Iptc4xmpExt:LocationShown: the place's name, city, state, country and position.
fn location_shown(body: &mut String, l: &Place, country: Option<&(&str, String)>) {
    body.push_str(
        "\n   <Iptc4xmpExt:LocationShown>\n    <rdf:Bag>\n     <rdf:li rdf:parseType=\"Resource\">",
    );
    let mut field = |name: &str, value: &str| {
        let _ = write!(body, "\n      <{name}>{}</{name}>", xml(value));
    };
    field("Iptc4xmpExt:LocationName", &l.name);
    if matches!(
        l.kind,
        PlaceKind::Town | PlaceKind::Neighbourhood | PlaceKind::Point
    ) {
        field("Iptc4xmpExt:City", reader_name(&l.name, &l.text));
    }
    if let Some(a) = &l.admin1 {
        field("Iptc4xmpExt:ProvinceState", a);
    }
    if let Some((cc, name)) = country {
        field("Iptc4xmpExt:CountryName", name);
        field("Iptc4xmpExt:CountryCode", cc);
    }
    field("exif:GPSLatitude", &xmp_gps(l.lat, 'N', 'S'));
    field("exif:GPSLongitude", &xmp_gps(l.lon, 'E', 'W'));
    body.push_str("\n     </rdf:li>\n    </rdf:Bag>\n   </Iptc4xmpExt:LocationShown>");
}

/// The sidecar file name of a caption.
pub fn xmp_file_name(id: i64) -> String {
    format!("cairn-{id}.xmp")
}

/// Writes a caption's sidecar into `dir` (which must exist), replacing any file of the
/// same name atomically; returns its path.
pub fn write_xmp(dir: &Path, c: &ExportedCaption, g: &Gazetteer) -> Result<PathBuf, Error> {
    let path = dir.join(xmp_file_name(c.id));
    let tmp = dir.join(format!(".{}.tmp", xmp_file_name(c.id)));
    let io = |source| Error::Io {
        path: path.display().to_string(),
        source,
    };
    std::fs::write(&tmp, xmp(c, g)).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gps_in_degrees_and_minutes() {
        assert_eq!(xmp_gps(33.558, 'N', 'S'), "33,33.480000N");
        assert_eq!(xmp_gps(-0.5, 'E', 'W'), "0,30.000000W");
    }

    #[test]
    fn xml_escapes_markup_and_drops_control_characters() {
        assert_eq!(xml("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
    }
}
