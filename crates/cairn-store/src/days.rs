//! Dates as the index keeps them: whole days since 1970-01-01, which the index stores
//! for each record and the date histogram turns back into dates.

/// Days since 1970-01-01 of an ISO date.
pub(crate) fn epoch_days(d: jiff::civil::Date) -> i64 {
    let epoch = jiff::civil::date(1970, 1, 1);
    d.since(epoch).map(|s| i64::from(s.get_days())).unwrap_or(0)
}

/// The date a number of days after 1970-01-01.
pub(crate) fn epoch_date(days: i64) -> jiff::civil::Date {
    let epoch = jiff::civil::date(1970, 1, 1);
    epoch
        .checked_add(jiff::Span::new().days(days))
        .unwrap_or(epoch)
}
