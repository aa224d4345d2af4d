//! The trace viewer in a real browser: `cnpic run --html` writes a page,
//! headless Chromium opens it through WebDriver (Debian's `chromium` and
//! `chromium-driver`; `.ci/run` installs them), and the test steps through
//! it with the page's own controls (keys, buttons, the jump box), reading
//! what the page shows: the step number, the slot, the condition bit, the
//! array's cells and the pointers drawn under them, and for `ram`
//! programs every variable, array, table and register.
//!
//! What the page shows is held against two oracles that share no code with
//! it: the run's own `--trace` (step, slot, bit) and the exact reference
//! interpreter, which reports the world at every step of the same program
//! (`cnpi::symbolic::run_observed`). Without a browser the test fails under
//! CI (`CI=true`) and says it skipped otherwise.

use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cnpi::env::{Declarations, read_input};
use cnpi::exec::Options;
use cnpi::program::hidden::written;
use cnpi::program::{Body, World};
use cnpi::symbolic::{Event, run_observed};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// One step as the oracles see it.
#[derive(Debug)]
struct Expected {
    slot: String,
    cond: String,
    cells: Vec<String>,
    pointers: Vec<(String, i64)>,
    /// The environment's state as `run --format json` reports it (in
    /// `ram`: every declared name and the tape; registers are pointers).
    state: Value,
}

/// What the page shows now.
#[derive(Debug, PartialEq)]
struct Shown {
    step: String,
    slot: String,
    cond: String,
    cells: Vec<String>,
    /// Each pointer drawn under the array, with the column it is under.
    pointers: Vec<(String, i64)>,
}

/// The steps of `file` on `input` by its own `--trace` (written while the
/// page is written) and by the reference interpreter; the page's path.
fn run(file: &str, input: &str, dir: &Path) -> (Vec<Expected>, PathBuf) {
    let page = dir.join(format!("{}.html", file.replace('/', "_")));
    let output = Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args(["run", file, "--input", input, "--trace", "--html"])
        .arg(&page)
        .current_dir(ROOT)
        .output()
        .expect("cnpic runs");
    let trace = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{trace}");
    // `BSTEP linrec c=1 → a1 COMPSWAP r=0`, indented by depth; a frame's
    // return (`MERGE returns · locals ...`) is a line of its own, not a step.
    let a_return = |line: &str| {
        let (program, rest) = line.trim().split_once(' ').unwrap_or_default();
        !program.is_empty() && (rest == "returns" || rest.starts_with("returns · locals "))
    };
    let traced: Vec<(String, String)> = (trace.lines())
        .filter(|line| !a_return(line))
        .map(|line| {
            let (head, bound) = line.trim().split_once(" → ").expect("a trace line");
            let cond = head.rsplit_once("c=").expect("a condition bit").1;
            let bound = bound.rsplit_once(" r=").expect("a return flag").0;
            let slot = match bound.split_once(' ') {
                Some((slot @ ("self" | "a1" | "a2" | "a3"), _)) => slot,
                _ => bound,
            };
            (slot.to_string(), cond.to_string())
        })
        .collect();
    let worlds = reference_worlds(&reference_text(file, dir), input);
    assert_eq!(
        traced.len(),
        worlds.len(),
        "both engines take the same steps"
    );
    let expected = (traced.into_iter().zip(worlds))
        .map(|((slot, cond), (cells, pointers, state))| Expected {
            slot,
            cond,
            cells,
            pointers,
            state,
        })
        .collect();
    (expected, page)
}

/// The text of `file` as the network runs it: the file itself, or for a
/// file of normal programs what `cnpic combinatorize` makes of it.
fn reference_text(file: &str, dir: &Path) -> String {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).expect("the example reads");
    let program = cnpi::compile::compile(file, &text, None)
        .program
        .expect("the example compiles");
    if !(program.defs.iter()).any(|d| matches!(d.body, Body::Normal(_))) {
        return text;
    }
    let out = dir.join("combinatorized.cnpi");
    let status = Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args(["combinatorize", file, "-o"])
        .arg(&out)
        .current_dir(ROOT)
        .status()
        .expect("cnpic runs");
    assert!(status.success(), "{file} combinatorizes");
    std::fs::read_to_string(out).expect("the combinatorized file reads")
}

/// The array `A`, the pointers and the environment's state at every step
/// of the reference interpreter running `text`.
#[allow(clippy::type_complexity)]
fn reference_worlds(text: &str, input: &str) -> Vec<(Vec<String>, Vec<(String, i64)>, Value)> {
    let program = cnpi::compile::compile("reference.cnpi", text, None)
        .program
        .expect("the example compiles");
    let state = read_input(&Declarations::of(&program), input).expect("the input reads");
    // The page shows a local under its written name (`key`, not `_1_key`).
    let names: Vec<String> = (program.pointers.iter())
        .map(|p| written(&p.name).to_string())
        .collect();
    let mut worlds = Vec::new();
    let mut observe = |event: Event| {
        if let Event::Step { view, .. } = event {
            let written = view.state().to_json_text(&[]);
            let state: Value = serde_json::from_str(&written).expect("valid JSON");
            // The array `A` (none in a `ram` program without one).
            let cells = (state["A"].as_array().into_iter().flatten())
                .map(|v| v.to_string())
                .collect();
            let pointers = (names.iter().enumerate())
                .map(|(p, name)| (name.clone(), view.pointer(p)))
                .collect();
            worlds.push((cells, pointers, state));
        }
        // Held by the test, not counted against the run's memory.
        0
    };
    let options = Options {
        max_steps: 1_000_000,
        trace: None,
        limits: Default::default(),
    };
    run_observed(&program, state, options, &mut observe).expect("the reference runs");
    worlds
}

/// A program on PATH, by name.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// A chromedriver on a free local port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Chromium and its driver, or `None` (with a message) when they are not
/// installed outside CI; under CI their absence fails the test.
fn browser() -> Option<(Driver, PathBuf)> {
    let found = (which("chromedriver"), which("chromium"));
    let (Some(driver), Some(chromium)) = found else {
        let message = "the trace viewer's browser test needs Debian's `chromium` and \
                       `chromium-driver` (`apt-get install chromium chromium-driver`; .ci/run \
                       installs them)";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
        eprintln!("SKIPPED: {message}");
        return None;
    };
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    Some((driver, chromium))
}

/// Runs `body` in one session of headless Chromium on a single-threaded
/// runtime and closes the session after it; does nothing where
/// [`browser`] finds no browser.
fn in_browser<F: Future<Output = ()>>(body: impl FnOnce(Client) -> F) {
    let Some((driver, chromium)) = browser() else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let client = connect(&driver, &chromium).await;
        body(client.clone()).await;
        client.close().await.expect("the session closes");
    });
}

async fn connect(driver: &Driver, chromium: &Path) -> Client {
    let capabilities = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,900"],
        }
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!("a JSON object");
    };
    ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session")
}

/// Opens `page` (at `#step=K` when given) and waits until it is drawn.
async fn open(client: &Client, page: &Path, fragment: &str) {
    let url = format!("file://{}{fragment}", page.display());
    // From another page, so that a new fragment loads the page anew.
    client.goto("about:blank").await.expect("a blank page");
    client.goto(&url).await.expect("the page opens");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ready = (client.execute("return document.body.dataset.ready || ''", vec![]))
            .await
            .expect("a script runs");
        match ready.as_str() {
            Some("1") => return,
            Some("error") => panic!("the page failed to open: {}", text(client, "loading").await),
            _ => {}
        }
        assert!(Instant::now() < deadline, "the page did not open in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text(client: &Client, id: &str) -> String {
    let element = client.find(Locator::Id(id)).await.expect("the element");
    element.text().await.expect("its text")
}

/// Reads what the page shows, from its DOM.
async fn shown(client: &Client) -> Shown {
    let read = r#"
        const text = (id) => document.getElementById(id).textContent;
        const table = document.querySelector('table.panel[data-title="A"]');
        const cells = [...table.querySelectorAll("td.cell")].map((td) => td.textContent);
        const pointers = [...table.querySelectorAll(".ptr")]
            .map((p) => [p.dataset.name, +p.parentElement.dataset.i]);
        return { step: text("stepno"), slot: text("slot"), cond: text("cond"), cells, pointers };
    "#;
    let value = client.execute(read, vec![]).await.expect("the page reads");
    let strings = |v: &Value| -> Vec<String> {
        (v.as_array().expect("a list").iter())
            .map(|s| s.as_str().expect("text").to_string())
            .collect()
    };
    let mut pointers: Vec<(String, i64)> = (value["pointers"].as_array().expect("pointers"))
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap_or("").to_string(),
                p[1].as_i64().unwrap_or(-1),
            )
        })
        .collect();
    pointers.sort();
    Shown {
        step: value["step"].as_str().unwrap_or("").to_string(),
        slot: value["slot"].as_str().unwrap_or("").to_string(),
        cond: value["cond"].as_str().unwrap_or("").to_string(),
        cells: strings(&value["cells"]),
        pointers,
    }
}

/// The page shows step `step` (counted from 1) as the oracles have it:
/// the pointers on the array are drawn under their cells, the others not.
async fn check(client: &Client, expected: &[Expected], step: usize) -> Shown {
    let now = shown(client).await;
    let want = &expected[step - 1];
    let n = want.cells.len() as i64;
    let mut pointers: Vec<(String, i64)> = (want.pointers.iter())
        .filter(|(_, at)| (0..n).contains(at))
        .cloned()
        .collect();
    pointers.sort();
    let wanted = Shown {
        step: step.to_string(),
        slot: want.slot.clone(),
        cond: want.cond.clone(),
        cells: want.cells.clone(),
        pointers,
    };
    assert_eq!(now, wanted, "step {step}");
    now
}

async fn key(client: &Client, key: Key, times: usize) {
    let body = client.find(Locator::Css("body")).await.expect("the body");
    for _ in 0..times {
        body.send_keys(&key.to_string()).await.expect("a key press");
    }
}

async fn click(client: &Client, id: &str) {
    let button = client.find(Locator::Id(id)).await.expect("the button");
    button.click().await.expect("a click");
}

/// Types `step` into the jump box and presses Enter.
async fn jump(client: &Client, step: usize) {
    let input = client
        .find(Locator::Id("jump"))
        .await
        .expect("the jump box");
    input.clear().await.expect("cleared");
    let typed = format!("{step}{}", Key::Enter);
    input.send_keys(&typed).await.expect("typed");
}

/// Steps through the page of `file` on `input`.
async fn step_through(client: &Client, file: &str, input: &str, dir: &Path) {
    let (expected, page) = run(file, input, dir);
    let last = expected.len();
    assert!(last > 40, "{file} takes {last} steps");
    open(client, &page, "").await;
    let first = check(client, &expected, 1).await;
    key(client, Key::Right, 3).await;
    check(client, &expected, 4).await;
    let middle = last / 2;
    jump(client, middle).await;
    let before = check(client, &expected, middle).await;
    click(client, "fwd").await;
    click(client, "fwd").await;
    check(client, &expected, middle + 2).await;
    // Going back restores the earlier state exactly.
    key(client, Key::Left, 1).await;
    click(client, "back").await;
    assert_eq!(check(client, &expected, middle).await, before);
    jump(client, last).await;
    check(client, &expected, last).await;
    key(client, Key::Home, 1).await;
    assert_eq!(check(client, &expected, 1).await, first);
    // A page opened at a step shows it.
    open(client, &page, &format!("#step={}", last - 3)).await;
    check(client, &expected, last - 3).await;
}

#[test]
fn the_page_shows_each_step_as_the_run_took_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    in_browser(|client| async move {
        step_through(
            &client,
            "examples/bubblesort.cnpi",
            "[5, 3, 9, 1, 7, 2]",
            dir.path(),
        )
        .await;
        step_through(
            &client,
            "examples/quicksort.cnpi",
            "[5, 3, 9, 1, 7, 2, 8]",
            dir.path(),
        )
        .await;
        ram(&client, dir.path()).await;
        locals(&client, dir.path()).await;
        next_call(&client, dir.path()).await;
        window(&client, dir.path()).await;
    });
}

/// Every panel the page draws, by title: its cells' text (the variables
/// panel's as `name=value`, sorted), and the registers as the page lists
/// them (`i = 3`).
async fn panels(client: &Client) -> (BTreeMap<String, Vec<String>>, Vec<String>) {
    let read = r#"
        const panels = {};
        for (const table of document.querySelectorAll("table.panel")) {
            panels[table.dataset.title] = table.dataset.title === "variables"
                ? [...table.querySelectorAll("tr")].map((tr) =>
                    tr.querySelector("td.rowname").textContent + "=" +
                    tr.querySelector("td.cell").textContent)
                : [...table.querySelectorAll("td.cell")].map((td) => td.textContent);
        }
        const registers = [...document.querySelectorAll("[data-pointer]")]
            .map((span) => span.textContent.trim());
        return { panels, registers };
    "#;
    let value = client.execute(read, vec![]).await.expect("the page reads");
    let strings = |v: &Value| -> Vec<String> {
        (v.as_array().into_iter().flatten())
            .map(|s| s.as_str().unwrap_or("").to_string())
            .collect()
    };
    let mut shown: BTreeMap<String, Vec<String>> = (value["panels"].as_object())
        .into_iter()
        .flatten()
        .map(|(title, cells)| (title.clone(), strings(cells)))
        .collect();
    if let Some(variables) = shown.get_mut("variables") {
        variables.sort();
    }
    (shown, strings(&value["registers"]))
}

/// What the page must draw at a step of a `ram` run, from the reference:
/// each scalar in the variables panel, each array as a row, each matrix
/// as a table read row by row, the tape; the registers with their values.
fn ram_panels(want: &Expected) -> (BTreeMap<String, Vec<String>>, Vec<String>) {
    let mut panels: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, value) in want.state.as_object().expect("a JSON object") {
        match value {
            Value::Array(items) => {
                let cells = (items.iter())
                    .flat_map(|item| match item {
                        Value::Array(row) => row.iter().map(Value::to_string).collect(),
                        other => vec![other.to_string()],
                    })
                    .collect();
                panels.insert(name.clone(), cells);
            }
            scalar => {
                (panels.entry("variables".into()).or_default()).push(format!("{name}={scalar}"))
            }
        }
    }
    if let Some(variables) = panels.get_mut("variables") {
        variables.sort();
    }
    let registers = (want.pointers.iter())
        .map(|(name, value)| format!("{name} = {value}"))
        .collect();
    (panels, registers)
}

/// `ram` programs, normal code run combinatorized: insertion sort stepped
/// through like the sorts above (its array, the registers under it), and
/// at several steps of it and of LCS (a DP table, two input arrays, a
/// var) every panel and register against the reference.
async fn ram(client: &Client, dir: &Path) {
    let sort = (
        "examples/ram/insertion_sort.cnpi",
        r#"{"A": [5, 2, 4, 6, 1, 3]}"#,
    );
    step_through(client, sort.0, sort.1, dir).await;
    let lcs = (
        "examples/ram/lcs.cnpi",
        r#"{"X": [1, 2, 3, 2], "Y": [2, 3, 2]}"#,
    );
    for (file, input) in [sort, lcs] {
        let (expected, page) = run(file, input, dir);
        let last = expected.len();
        open(client, &page, "").await;
        for step in [1, last / 3, last / 2 + 1, last] {
            jump(client, step).await;
            let want = ram_panels(&expected[step - 1]);
            assert!(want.0.contains_key("variables"), "{file} has scalars");
            assert_eq!(panels(client).await, want, "{file}, step {step}");
        }
    }
}

/// Each program's locals on a line of their own under their written
/// names, and a local array drawn as `local L` while its activation runs
/// (merge sort's MERGE, examples/ram/merge_sort.cnpi).
async fn locals(client: &Client, dir: &Path) {
    let (expected, page) = run(
        "examples/ram/merge_sort.cnpi",
        r#"{"A": [5, 2, 4, 7, 1]}"#,
        dir,
    );
    let last = expected.len();
    open(client, &page, "").await;
    let (mut merging, mut drawn) = (false, false);
    for step in (1..=last).step_by(7) {
        jump(client, step).await;
        let registers = text(client, "pointers").await;
        assert!(!registers.contains("_0_"), "step {step}: {registers}");
        merging |= registers.contains("locals of MERGE: ") && registers.contains("nl = ");
        let (panels, _) = panels(client).await;
        assert!(
            !panels.keys().any(|t| t.starts_with('_')),
            "step {step}: {panels:?}"
        );
        drawn |= panels.contains_key("local L") && panels.contains_key("local R");
    }
    assert!(merging, "MERGE's locals are listed under its name");
    assert!(drawn, "MERGE's local arrays are drawn");
}

/// "next call of" finds the next step that calls the chosen applier.
async fn next_call(client: &Client, dir: &Path) {
    let (expected, page) = run("examples/bubblesort.cnpi", "[4, 2, 3]", dir);
    open(client, &page, "").await;
    let choose = r#"
        const select = document.getElementById("applier");
        select.value = [...select.options].find((o) => o.text === "RESET").value;
    "#;
    client
        .execute(choose, vec![])
        .await
        .expect("RESET is listed");
    click(client, "nextcall").await;
    // RESET is called by BUBBLESORT's a2; the trace names it `a2 RESET`.
    let output = Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args([
            "run",
            "examples/bubblesort.cnpi",
            "--input",
            "[4, 2, 3]",
            "--trace",
        ])
        .current_dir(ROOT)
        .output()
        .expect("cnpic runs");
    let trace = String::from_utf8_lossy(&output.stderr);
    let call =
        (trace.lines().position(|line| line.contains("→ a2 RESET "))).expect("RESET is called");
    check(client, &expected, call + 1).await;
}

/// Not a test of behaviour: prints each page's size and how long it took
/// to open (the page's own measure, from reading its data to the first
/// step drawn), for the pages listed in `CNPI_VIEWER_PAGES`
/// (comma-separated). docs/viewer.md quotes its output.
#[test]
#[ignore = "a measurement: CNPI_VIEWER_PAGES=a.html,b.html cargo test -p cnpic --test viewer -- --ignored"]
fn load_times() {
    let pages = std::env::var("CNPI_VIEWER_PAGES").unwrap_or_default();
    in_browser(|client| async move {
        for page in pages.split(',').filter(|p| !p.is_empty()) {
            let path = std::fs::canonicalize(page).expect("the page exists");
            let started = Instant::now();
            open(&client, &path, "").await;
            let total = started.elapsed();
            let own = (client.execute("return document.body.dataset.loadMs", vec![]))
                .await
                .expect("a script runs");
            let steps = text(&client, "of").await;
            let size = std::fs::metadata(&path).expect("its size").len();
            let started = Instant::now();
            key(&client, Key::End, 1).await;
            key(&client, Key::Left, 1).await;
            let far = started.elapsed();
            println!(
                "{page}: {size} bytes, {steps}; opened in {total:?} (page's own measure {own} ms); \
                 End then Left answered in {far:?}"
            );
        }
    });
}

/// `--html-steps A..B` records steps A to B: the page opens at A, ends at
/// B, and says so; nothing in it is fetched from anywhere.
async fn window(client: &Client, dir: &Path) {
    let page = dir.join("window.html");
    let output = Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .args([
            "run",
            "examples/bubblesort.cnpi",
            "--input",
            "[5, 3, 9, 1, 7, 2]",
        ])
        .args(["--html-steps", "50..80", "--html"])
        .arg(&page)
        .current_dir(ROOT)
        .output()
        .expect("cnpic runs");
    assert!(output.status.success());
    let html = std::fs::read_to_string(&page).expect("the page reads");
    for fetching in ["src=", "href=", "http://", "https://", "@import", "url("] {
        assert!(!html.contains(fetching), "the page holds `{fetching}`");
    }
    let (expected, _) = run("examples/bubblesort.cnpi", "[5, 3, 9, 1, 7, 2]", dir);
    open(client, &page, "").await;
    check(client, &expected, 50).await;
    key(client, Key::End, 1).await;
    key(client, Key::Left, 1).await;
    check(client, &expected, 80).await;
    let note = text(client, "note").await;
    let wanted = format!("Steps 50–80 of {} are recorded", expected.len());
    assert!(note.contains(&wanted), "{note}");
}

/// The data block `id` of a page: base64 of a zlib stream, inflated.
fn block(html: &str, id: &str) -> Vec<u8> {
    use base64::Engine;
    use std::io::Read;
    let start = html.find(&format!("id=\"{id}\">")).expect("the block") + id.len() + 6;
    let end = start + html[start..].find('<').expect("its end");
    let packed = base64::engine::general_purpose::STANDARD
        .decode(&html[start..end])
        .expect("base64");
    let mut bytes = Vec::new();
    flate2::read::ZlibDecoder::new(packed.as_slice())
        .read_to_end(&mut bytes)
        .expect("a zlib stream");
    bytes
}

/// `cnpic run FILE --input INPUT --html`: the page's size and its data.
fn page_of(file: &Path, input: &str, dir: &Path) -> (usize, Value) {
    let page = dir.join("page.html");
    let input_file = dir.join("input.json");
    std::fs::write(&input_file, input).expect("writable");
    let output = Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .arg("run")
        .arg(file)
        .arg("--input")
        .arg(format!("@{}", input_file.display()))
        .arg("--html")
        .arg(&page)
        .env("CNPI_CACHE_DIR", dir.join("cache"))
        .stdout(Stdio::null())
        .output()
        .expect("cnpic runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("the page");
    let meta = serde_json::from_slice(&block(&html, "meta-data")).expect("JSON");
    (html.len(), meta)
}

/// The text the page holds of the world.
fn world_bytes(meta: &Value) -> usize {
    let chunks = meta["world"].as_array().expect("chunks");
    (chunks.iter())
        .map(|chunk| chunk[0].as_str().map_or(0, str::len) + chunk[1].as_str().map_or(0, str::len))
        .sum()
}

/// Issue 29: the page of a large run is bounded, and so is the memory
/// that records it (its world's text is what it held): an array of 10^5
/// elements is recorded whole without its panels, a `ram` loop over a
/// 1000 x 1000 table until the step limit, and the page says what it left
/// out. A small world keeps its panels.
#[test]
fn the_page_of_a_large_run_stays_bounded() {
    use cnpi_neural::viewer::Window;
    use cnpi_neural::viewer::world::{MAX_BYTES, MAX_CELLS};
    let dir = tempfile::tempdir().expect("temp dir");
    let reverse = Path::new(ROOT).join("examples/reverse.cnpi");
    let (_, small) = page_of(&reverse, "[3, 1, 2]", dir.path());
    assert_eq!(small["left"], json!([]));
    let snapshot: Value = serde_json::from_str(small["world"][0][0].as_str().unwrap()).unwrap();
    assert!(!snapshot["panels"].as_array().unwrap().is_empty());

    let elements: Vec<i64> = (0..100_000).collect();
    let (size, meta) = page_of(&reverse, &json!(elements).to_string(), dir.path());
    assert_eq!(meta["recorded"], meta["steps"]);
    assert!(size < 4 << 20, "a page of {size} bytes");
    assert!(
        world_bytes(&meta) < 16 << 20,
        "{} bytes",
        world_bytes(&meta)
    );
    let left = meta["left"][0].as_str().expect("a sentence");
    assert!(
        left.contains(&format!("more than the {MAX_CELLS}")),
        "{left}"
    );

    let fill = dir.path().join("fill.cnpi");
    let program = "env ram(i = 0, j = 0)\ninput k\nvar D[k][k] = 0\n\ndef FILL():\n  while i < k:\n    j = 0\n    while j < k:\n      D[i][j] = i + j\n      j = j + 1\n    i = i + 1\n";
    std::fs::write(&fill, program).expect("writable");
    let (size, meta) = page_of(&fill, r#"{"k": 1000}"#, dir.path());
    assert_eq!(meta["recorded"], Window::LIMIT);
    assert!(meta["steps"].as_u64().unwrap() > Window::LIMIT);
    assert!(size < 24 << 20, "a page of {size} bytes");
    assert!(world_bytes(&meta) <= MAX_BYTES + (1 << 20));
    assert!(
        meta["left"][0].as_str().unwrap().contains("1000001 cells"),
        "{}",
        meta["left"]
    );
}

/// The deepest the call frames of any recorded frame of the page go, by
/// replaying the world's changes as the page does.
fn deepest_frames(meta: &Value) -> usize {
    let parse = |text: &Value| -> Value {
        serde_json::from_str(text.as_str().expect("JSON text")).expect("JSON")
    };
    let mut deepest = 0;
    for chunk in meta["world"].as_array().expect("chunks") {
        let mut depth = parse(&chunk[0])["f"].as_array().expect("frames").len();
        deepest = deepest.max(depth);
        for frame in parse(&chunk[1]).as_array().expect("changes") {
            let ops = frame.as_array().expect("operations");
            let mut i = 1;
            while i < ops.len() {
                i += match ops[i].as_u64().expect("an operation") {
                    0 | 2 | 5 => 3,
                    1 => 4,
                    3 | 4 => 2,
                    6 => {
                        depth = ops[i + 1].as_u64().expect("a count") as usize;
                        2
                    }
                    7 => {
                        depth += 1;
                        3
                    }
                    other => panic!("unknown operation {other}"),
                };
                deepest = deepest.max(depth);
            }
        }
    }
    deepest
}

/// A normal program on explicit frames (DFS as CLRS writes it): the page
/// holds its call frames, DFS's own and one per DFS-VISIT on the path
/// 0 → 2 → 1, and none at the end.
#[test]
fn the_page_shows_the_call_frames() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dfs = Path::new(ROOT).join("examples/ram/dfs.cnpi");
    let input = r#"{"A": [[0, 0, 1], [0, 0, 0], [0, 1, 0]]}"#;
    let (_, meta) = page_of(&dfs, input, dir.path());
    assert!(deepest_frames(&meta) >= 4, "{}", deepest_frames(&meta));
    let html = std::fs::read_to_string(dir.path().join("page.html")).expect("the page");
    assert!(html.contains("Call frames"));
}
