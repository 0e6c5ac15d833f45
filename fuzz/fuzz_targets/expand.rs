//! Inputs that stand for much longer pages, so that fuzzing reaches what only a long
//! page holds (a tag of thousands of attributes, thousands of open elements) within
//! libFuzzer's short inputs.
//!
//! An input `HEAD \x01 N UNIT \x01 TAIL` is the page HEAD, then UNIT repeated 16 * N
//! times (N is one byte) while the page stays under [`MAX_PAGE`], then TAIL; an input
//! without `\x01` is the page itself. Up to 4,080 repetitions pass every bound the
//! readers set on attributes per tag, while the page stays small enough that each input
//! is read within libFuzzer's time limit (a larger one only measures how long a big page
//! takes).

/// The most bytes the repeated part of a page may hold.
const MAX_PAGE: usize = 256 * 1024;

/// The page an input stands for.
pub fn expand(data: &[u8]) -> Vec<u8> {
    let Some(start) = data.iter().position(|&b| b == 1) else {
        return data.to_vec();
    };
    let rest = &data[start + 1..];
    let Some((&n, rest)) = rest.split_first() else {
        return data.to_vec();
    };
    let end = rest.iter().position(|&b| b == 1).unwrap_or(rest.len());
    let (unit, tail) = (&rest[..end], rest.get(end + 1..).unwrap_or(&[]));
    let mut page = data[..start].to_vec();
    for _ in 0..usize::from(n) * 16 {
        if page.len() + unit.len() > MAX_PAGE {
            break;
        }
        page.extend_from_slice(unit);
    }
    page.extend_from_slice(tail);
    page
}
