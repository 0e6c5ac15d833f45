//! The parser's unit tests: one credit's pieces and their roles.

use super::*;

fn p(s: &str, mode: Mode) -> (Vec<String>, Option<String>, Option<String>) {
    let r = parse(s, mode).unwrap_or_else(|| panic!("no credit in {s:?}"));
    (r.people, r.agency, r.distributor)
}

#[test]
fn roles_of_pieces() {
    let s = |v: &str| Some(v.to_string());
    assert_eq!(
        p("Xinhua/Jane Roe", Mode::Exact),
        (vec!["Jane Roe".into()], s("Xinhua"), None)
    );
    assert_eq!(p("Name Roe/EPA/EFE", Mode::Exact).1, s("EPA"));
    assert_eq!(p("Name Roe/EPA/EFE", Mode::Exact).2, None);
    assert_eq!(
        p("Jo Roe/UNICEF/Handout via REUTERS", Mode::Exact),
        (vec!["Jo Roe".into()], s("UNICEF"), s("Reuters"))
    );
    assert_eq!(p("Jo Roe/Pool via REUTERS", Mode::Exact).1, s("Pool"));
    assert_eq!(p("REUTERS/Jo Roe/Pool", Mode::Exact).2, s("Pool"));
    assert_eq!(p("dpa / Jo Roe", Mode::Exact).1, s("dpa"));
    assert_eq!(
        p("JO ROE / AFP / picturedesk.com", Mode::Exact).2,
        s("picturedesk.com")
    );
    assert_eq!(p("Jo Roe Agence France-Presse", Mode::Exact).1, s("AFP"));
    assert_eq!(
        p("EFE - JO ROE", Mode::Exact),
        (vec!["JO ROE".into()], s("EFE"), None)
    );
    assert_eq!(
        p("AP Photo/Jo Roe, File", Mode::Exact).0,
        vec!["Jo Roe".to_string()]
    );
    let r = parse("AP Photo/Jo Roe, File", Mode::Exact).unwrap();
    assert_eq!(r.flags, vec![CreditFlag::File]);
    assert_eq!(
        p(
            "the old city of Kabul BULENT KILIC/AFP/GETTY IMAGES",
            Mode::Tail
        ),
        (vec!["BULENT KILIC".into()], s("AFP"), s("Getty Images"))
    );
    assert_eq!(
        p("AP Photo/Jane Roe A man walks home", Mode::Lead),
        (vec!["Jane Roe".into()], s("AP"), None)
    );
    assert!(parse("fighters walk to the 9/11 memorial", Mode::Tail).is_none());
}
