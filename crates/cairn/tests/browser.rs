//! The web page in a real browser: headless Chromium driven through ChromeDriver
//! (Debian `chromium` + `chromium-driver`, installed by .ci/run) against `cairn serve` on
//! a demo archive. Each step asserts what the page shows against the CLI's answer for
//! the same query and saves a screenshot under target/e2e/.

mod common;
#[path = "browser/editing.rs"]
mod editing;
#[path = "browser/round2.rs"]
mod round2;
#[path = "browser/round3.rs"]
mod round3;
#[path = "browser/steps.rs"]
mod steps;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{cairn, json};
use fantoccini::{Client, ClientBuilder, Locator};

/// A child process killed when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_for(port: u16, what: &str) {
    let t = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "{what} did not start listening on {port}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// ChromeDriver and Chromium, or `None` with a message outside CI (CI installs them).
fn browser_tools() -> Option<(PathBuf, PathBuf)> {
    let driver = PathBuf::from(
        std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into()),
    );
    let chrome =
        PathBuf::from(std::env::var("CHROME").unwrap_or_else(|_| "/usr/bin/chromium".into()));
    if driver.exists() && chrome.exists() {
        return Some((driver, chrome));
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "{} or {} missing (Debian: chromium chromium-driver)",
            driver.display(),
            chrome.display()
        );
    }
    eprintln!("skipping: no chromium/chromedriver");
    None
}

fn shots_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e");
    std::fs::create_dir_all(&d).unwrap();
    d
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap();
}

async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn shown_total(c: &Client) -> u64 {
    text_of(c, "#total").await.trim().parse().expect("a total")
}

/// The CLI's total for the same parameters the page's URL carries.
fn cli_total(data: &Path, url: &url::Url) -> u64 {
    let mut cmd = cairn(data);
    let mut query = String::new();
    cmd.args(["search", "--json", "--limit", "1"]);
    for (k, v) in url.query_pairs() {
        match k.as_ref() {
            "q" => query = v.into_owned(),
            "agency" | "photographer" | "place" | "country" | "event" | "from" | "to"
            | "source" => {
                cmd.arg(format!("--{k}")).arg(v.as_ref());
            }
            "killed_min" => {
                cmd.arg("--killed-min").arg(v.as_ref());
            }
            "bbox" => {
                cmd.arg(format!("--bbox={v}"));
            }
            _ => {}
        }
    }
    cmd.arg("--").arg(query);
    json(&mut cmd)["total"].as_u64().unwrap()
}

async fn wait_url_change(c: &Client, before: &url::Url) -> url::Url {
    let t = Instant::now();
    loop {
        let now = c.current_url().await.unwrap();
        if &now != before {
            // Let the new page finish loading.
            let _ = c.find(Locator::Css("footer")).await;
            return now;
        }
        assert!(
            t.elapsed() < Duration::from_secs(15),
            "the page did not navigate"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `cairn serve` on `data`, ChromeDriver and a headless Chromium session: the two
/// processes (killed when dropped), the client and the server's base URL.
async fn open(data: &Path, driver: &Path, chrome: &Path) -> (Guard, Guard, Client, String) {
    let port = free_port();
    let bin = assert_cmd::cargo::cargo_bin("cairn");
    let server = Guard(
        Command::new(&bin)
            .arg("--data")
            .arg(data)
            .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let dport = free_port();
    let driver_process = Guard(
        Command::new(driver)
            .arg(format!("--port={dport}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for(port, "cairn serve");
    wait_for(dport, "chromedriver");

    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chrome,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1100", "--hide-scrollbars"]
        }),
    );
    let c = ClientBuilder::native()
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{dport}"))
        .await
        .expect("connect to chromedriver");
    let base = format!("http://127.0.0.1:{port}");
    (server, driver_process, c, base)
}

#[tokio::test(flavor = "current_thread")]
async fn search_facet_timeline_map_caption_in_chromium() {
    let Some((driver, chrome)) = browser_tools() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("archive");
    // The demo archive, plus a caption that tries to be markup.
    cairn(&data)
        .args(["demo", "--no-serve", "--pages", "400"])
        .assert()
        .success();
    cairn(&data)
        .args(["ingest", "-"])
        .write_stdin(
            "Boys play near <script>document.title='pwned'</script> a \" onmouseover=\"document.title='pwned'\" ruined school in Homs, Syria, on May 3, 2016. (Photo by Test Person/Sample Wire)\n",
        )
        .assert()
        .success();
    // Two texts of one photograph, a word apart: one caption with two variants.
    for text in [
        "Men carry a wounded child through the rubble of a market in Douma, Syria, on March 3, 2018. (Photo by Test Person/Sample Wire)\n",
        "Men carry a wounded child through rubble of a market in Douma, Syria, on March 3, 2018. (Photo by Test Person/Sample Wire)\n",
    ] {
        cairn(&data)
            .args(["ingest", "-"])
            .write_stdin(text)
            .assert()
            .success();
    }
    // A French caption of Aleppo and its English translation: a search by the place's
    // name in another language, and translations shown together.
    cairn(&data)
        .args(["ingest", "-"])
        .write_stdin(
            "Le directeur, Omar Haddad, montre l'école Al-Amal, détruite à Alep, en Syrie, le 24 novembre 2016. AFP PHOTO / SAMI KATEB\n\nThe headmaster, Omar Haddad, shows the Al-Amal school, destroyed in Aleppo, Syria, on November 24, 2016. (Photo by Sami Kateb / AFP)\n",
        )
        .assert()
        .success();
    // An Arabic caption, to be read right to left.
    cairn(&data)
        .args(["ingest", "-"])
        .write_stdin(
            "أطفال يلعبون قرب مدرسة مدمرة في حلب، سوريا، 24 تشرين الثاني 2016. (تصوير سامي كاتب / أ ف ب)\n",
        )
        .assert()
        .success();

    let (_server, _driver, c, base) = open(&data, &driver, &chrome).await;
    c.set_window_size(1400, 1000).await.unwrap();

    // 1. The page lists everything, server-rendered.
    c.goto(&format!("{base}/")).await.unwrap();
    let stats = json(cairn(&data).args(["stats", "--json"]));
    assert_eq!(shown_total(&c).await, stats["captions"].as_u64().unwrap());
    assert_eq!(c.title().await.unwrap(), "Search · cairn");
    shot(&c, "01-home").await;

    // 2. A search from the box.
    let before = c.current_url().await.unwrap();
    let q = c
        .find(Locator::Css("form.search input[name=q]"))
        .await
        .unwrap();
    q.send_keys("Aleppo").await.unwrap();
    c.find(Locator::Css("form.search button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = wait_url_change(&c, &before).await;
    assert!(url.query().unwrap_or("").contains("q=Aleppo"), "{url}");
    let n = shown_total(&c).await;
    assert!(n > 0);
    assert_eq!(n, cli_total(&data, &url));
    let first = text_of(&c, "li.hit p.text").await;
    assert!(first.contains("Aleppo"), "{first}");
    shot(&c, "02-search").await;

    // 3. A facet: the event type with the most matches.
    let facet = c
        .find(Locator::Css("section[data-facet=event] li"))
        .await
        .unwrap();
    let count: u64 = facet
        .find(Locator::Css(".count"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
        .parse()
        .unwrap();
    let before = c.current_url().await.unwrap();
    facet
        .find(Locator::Css("a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = wait_url_change(&c, &before).await;
    assert!(url.query().unwrap().contains("event="), "{url}");
    assert_eq!(
        shown_total(&c).await,
        count,
        "the facet's count is the new total"
    );
    assert_eq!(count, cli_total(&data, &url));
    shot(&c, "03-facet").await;

    // 4. A timeline bar: clicking it filters to its period.
    c.goto(&format!("{base}/?q=Aleppo")).await.unwrap();
    let bars = c
        .find_all(Locator::Css("svg.bars a[data-count]"))
        .await
        .unwrap();
    let mut target = None;
    for b in bars {
        let n: u64 = b
            .attr("data-count")
            .await
            .unwrap()
            .unwrap()
            .parse()
            .unwrap();
        if n > 0 {
            target = Some((b, n));
            break;
        }
    }
    let (bar, n) = target.expect("a bar with matches");
    let (from, to) = (
        bar.attr("data-from").await.unwrap().unwrap(),
        bar.attr("data-to").await.unwrap().unwrap(),
    );
    let before = c.current_url().await.unwrap();
    bar.find(Locator::Css("rect.bar"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = wait_url_change(&c, &before).await;
    let pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    assert!(pairs.contains(&("from".into(), from.clone())), "{url}");
    assert!(pairs.contains(&("to".into(), to.clone())), "{url}");
    assert_eq!(shown_total(&c).await, n, "the bar's count is the new total");
    shot(&c, "04-timeline").await;

    // 5. A map point: filters to the matches around it.
    c.goto(&format!("{base}/")).await.unwrap();
    let chosen = steps::free_point(&c).await;
    let point = chosen.find(Locator::Css("circle.dot")).await.unwrap();
    let label = chosen.attr("aria-label").await.unwrap().unwrap();
    let cell: u64 = label.split(' ').next().unwrap().parse().unwrap();
    let before = c.current_url().await.unwrap();
    point.click().await.unwrap();
    let url = wait_url_change(&c, &before).await;
    assert!(url.query().unwrap().contains("bbox="), "{url}");
    let n = shown_total(&c).await;
    assert!(
        n >= cell && n > 0,
        "{n} captions in the point's box, {cell} in its cell"
    );
    assert_eq!(n, cli_total(&data, &url));
    shot(&c, "05-map").await;

    // 6. A caption page: every variant and source.
    let link = c.find(Locator::Css("li.hit .prov a")).await.unwrap();
    let href = link.attr("href").await.unwrap().unwrap();
    let id: i64 = href
        .trim_start_matches("/captions/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    link.click().await.unwrap();
    c.find(Locator::Css("main.caption-page")).await.unwrap();
    assert_eq!(text_of(&c, "h1").await, format!("Caption #{id}"));
    let shown = json(cairn(&data).args(["show", &id.to_string(), "--json"]));
    let variants = c.find_all(Locator::Css("li.variant")).await.unwrap();
    assert_eq!(variants.len(), shown["variants"].as_array().unwrap().len());
    let occurrences = c.find_all(Locator::Css("ul.occurrences li")).await.unwrap();
    let expected: usize = shown["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["occurrences"].as_array().unwrap().len())
        .sum();
    assert_eq!(occurrences.len(), expected);
    shot(&c, "06-caption").await;

    // Captions are data: the markup in one shows as text and runs nothing.
    c.goto(&format!("{base}/?q=ruined+school")).await.unwrap();
    let text = text_of(&c, "li.hit p.text").await;
    assert!(
        text.contains("<script>document.title='pwned'</script>"),
        "{text}"
    );
    assert!(text.contains("\" onmouseover=\""), "{text}");
    c.find(Locator::Css("li.hit p.text"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_ne!(c.title().await.unwrap(), "pwned");
    shot(&c, "07-markup-as-text").await;

    steps::two_values_of_a_facet(&c, &base, &data).await;
    steps::show_all_and_filter(&c, &base).await;
    steps::chips_are_names(&c, &base).await;
    steps::forgiving_search(&c, &base).await;
    steps::exports_and_copy(&c, &base).await;
    steps::map_labels_points_and_zoom(&c, &base).await;
    steps::caption_page_keeps_the_search(&c, &base).await;
    steps::variants_are_diffed(&c, &base).await;
    steps::arabic_reads_right_to_left(&c, &base).await;
    steps::places_by_any_name(&c, &base).await;
    round2::keyboard_reaches_a_caption(&c, &base).await;
    round2::show_all_box_hides_rows(&c, &base).await;
    round2::language_is_kept(&c, &base).await;
    round2::one_place_in_four_scripts(&c, &base).await;
    round3::timeline_split_by_agency(&c, &base).await;
    round3::map_pans_from_the_keyboard(&c, &base).await;
    round3::map_tap_targets_on_a_phone(&c, &base).await;
    // A phone-width screen: one column, nothing wider than the screen.
    steps::phone_filters_button(&c, &base).await;
    round2::phone_shows_results_first(&c, &base).await;

    c.close().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn corrections_in_chromium() {
    let Some((driver, chrome)) = browser_tools() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("archive");
    cairn(&data)
        .args(["ingest", "-"])
        .write_stdin(editing::TEXTS)
        .assert()
        .success();
    editing::accounts(&data);
    let (_server, _driver, c, base) = open(&data, &driver, &chrome).await;
    c.set_window_size(1280, 1400).await.unwrap();
    editing::a_reader_has_no_form(&c, &base).await;
    editing::an_editor_corrects_a_location(&c, &base, &data).await;
    c.close().await.unwrap();
}
