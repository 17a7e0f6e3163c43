#!/usr/bin/env python3
"""The page of `scaleopt serve` in a real browser (docs/serve.md, "The page").

Starts `scaleopt serve --port 0` in the source tree and drives Debian's chromium (headless, by
chromium-driver and python3-selenium) on its page:
  - the demand slider (inference.rate of examples/frontier_100x.toml) moved with the keyboard:
    the answer the page holds equals `scaleopt solve --json` run with the same --set, written
    here from the value the slider set (Python's repr, its own shortest round-trip text);
  - the command line the page offers to copy, run with --json added, answers the same numbers;
    the scenario the page downloads (TOML) answers them too;
  - a chip chosen in a menu, a key the file does not give moved: the same comparisons;
  - a bad value typed next to a control shows the API's one-line message there, which is the
    command line's (`scaleopt: error: --set: ...` where the API says `set: ...`);
  - the page fetched nothing from another origin and logged no error (its
    Content-Security-Policy would have refused anything else); answers are not compressed;
  - the time from a slider's move to the frame that shows the redrawn chart, measured in the
    page with performance.now(), median of 20 moves: printed (docs/performance.md).
A screenshot is kept in OUT_DIR/serve_page.png.
Usage: test_serve_page.py SCALEOPT SOURCE_DIR OUT_DIR
"""
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_serve_answers import post, same, start_server  # noqa: E402

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    sys.exit("FAIL: selenium not found: install python3-selenium (make test does: "
             "scripts/install-deps --browser)")

EXAMPLE = "frontier_100x"
DEMAND = "inference.rate"
# The page's slider moves and the CLI's answers are computed by the same code from the same
# doubles: equality is expected; 1e-12 relative is issue 28's bound, and covers only printing.
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
# Generous: a sanitized build answers a 200-point sweep in a second or more.
WAIT_S = 120


def require(path, package):
    if not os.path.exists(path):
        sys.exit(f"FAIL: {path} not found: install {package} (make test does: "
                 "scripts/install-deps --browser)")


def browser(downloads):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # Off the network, as the report test runs chromium, in a fresh profile.
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1500,1100",
                 "--disable-dev-shm-usage"]:
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                              "download.prompt_for_download": False})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior",
                           {"behavior": "allow", "downloadPath": downloads})
    return driver


def wait_idle(driver, answers_before):
    """Until the page has drawn an answer after `answers_before` and has nothing pending."""
    def idle(d):
        body = d.find_element(By.TAG_NAME, "body")
        done = int(body.get_attribute("data-answers") or 0) > answers_before
        return done and body.get_attribute("data-state") in ("idle", "error") and \
            not d.execute_script("return window.scaleopt.state.inFlight || "
                                 "window.scaleopt.state.pending")
    WebDriverWait(driver, WAIT_S).until(idle)


def answers(driver):
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-answers") or 0)


def page_state(driver):
    """The page's answer (the raw JSON it holds), its overrides and its command line."""
    answer = json.loads(driver.find_element(By.ID, "answer-json").get_attribute("textContent"))
    overrides = driver.execute_script(
        "return [...window.scaleopt.state.set].map(([k, v]) => [k, v])")
    command = driver.find_element(By.ID, "command-line").get_attribute("textContent")
    return answer, overrides, command


def cli_json(exe, source, argv):
    run = subprocess.run([exe, *argv, "--json"], cwd=source, capture_output=True, text=True)
    assert run.returncode in (0, 1), (argv, run.stderr)
    return json.loads(run.stdout)


def set_arguments(overrides):
    """--set arguments written here, independently of the page: a number by Python's repr."""
    argv = []
    for key, value in overrides:
        text = repr(float(value)) if isinstance(value, (int, float)) else str(value)
        argv += ["--set", f"{key}={text}"]
    return argv


def check_against_cli(exe, source, driver, what):
    answer, overrides, command = page_state(driver)
    expected = cli_json(exe, source, ["solve", f"examples/{EXAMPLE}.toml", *set_arguments(overrides)])
    same(answer, expected, f"{what}: page")
    # The command line as the page offers it, run (with --json to compare every number).
    words = shlex.split(command)
    assert words[:3] == ["scaleopt", "solve", f"examples/{EXAMPLE}.toml"], command
    same(cli_json(exe, source, words[1:]), answer, f"{what}: copied command line")
    print(f"{what}: the page's answer equals solve --json with {overrides}; "
          f"its command line answers the same: {command}")
    return answer


def check_download(exe, source, driver, downloads, answer):
    toml = driver.execute_script("return window.scaleopt.scenarioToml()")
    for name in os.listdir(downloads):
        os.remove(os.path.join(downloads, name))
    driver.find_element(By.ID, "download-toml").click()
    # The browser may show the file under its name before it has written all of it (seen
    # under load: the first read got less than the scenario): read it once it is complete,
    # no download pending and the same size twice 0.2 s apart.
    deadline = time.time() + 30
    files, saved, last_size = [], None, -1
    while time.time() < deadline:
        names = os.listdir(downloads)
        files = [f for f in names if f.endswith(".toml")]
        pending = [f for f in names if f.endswith(".crdownload")]
        if files and not pending:
            size = os.path.getsize(os.path.join(downloads, files[0]))
            if size > 0 and size == last_size:
                with open(os.path.join(downloads, files[0]), encoding="utf-8") as f:
                    saved = f.read()
                break
            last_size = size
        time.sleep(0.2)
    assert files, "the download button saved no .toml file"
    assert saved is not None, "the downloaded .toml file was never complete"
    assert saved == toml, "the downloaded file is not the page's scenario"
    path = os.path.join(downloads, "page.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(saved)
    from_file = cli_json(exe, source, ["solve", path])
    assert from_file["scenario"] == path
    from_file["scenario"] = answer["scenario"]  # the only key that names the file
    same(from_file, answer, "downloaded TOML")
    print(f"the downloaded scenario ({files[0]}) answers what the page shows")


def move(driver, slider, key):
    before = answers(driver)
    slider.send_keys(key)
    wait_idle(driver, before)


def main():
    exe, source, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    require(CHROMIUM, "chromium")
    require(CHROMEDRIVER, "chromium-driver")
    os.makedirs(out_dir, exist_ok=True)
    proc, port = start_server(exe, source)
    downloads = tempfile.mkdtemp(prefix="scaleopt-page-")
    driver = None
    try:
        url = f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(url, timeout=30) as response:
            policy = response.headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "connect-src 'self'" in policy, policy
        # Answers go uncompressed though the browser accepts br: cpp-httplib's Brotli at its
        # highest quality took seconds over a sweep's answer (server/http_server.cpp).
        for path, body in [("chart.min.js", None),
                           ("api/sweep", json.dumps({"example": EXAMPLE,
                                                     "vary": f"{DEMAND}=1M/s..1G/s:log:200"}))]:
            request = urllib.request.Request(url + path, data=body and body.encode(),
                                             headers={"Accept-Encoding": "gzip, deflate, br"})
            with urllib.request.urlopen(request, timeout=60) as response:
                assert response.headers.get("Content-Encoding") is None, (path, response.headers)
        driver = browser(downloads)
        driver.get(url + f"?example={EXAMPLE}")
        wait_idle(driver, 0)
        slider = driver.find_element(By.CSS_SELECTOR, f'input[type=range][data-path="{DEMAND}"]')

        # The demand slider, moved by the keyboard as a user would: five steps up.
        before = answers(driver)
        for _ in range(5):
            slider.send_keys(Keys.ARROW_RIGHT)
        wait_idle(driver, before)
        answer = check_against_cli(exe, source, driver, "demand moved")
        assert dict(page_state(driver)[1])[DEMAND] > 50e6, "the slider did not raise the rate"
        check_download(exe, source, driver, downloads, answer)
        driver.save_screenshot(os.path.join(out_dir, "serve_page.png"))

        # A chip from the menu.
        before = answers(driver)
        Select(driver.find_element(By.CSS_SELECTOR, 'select[data-path="inference.hardware"]')) \
            .select_by_value("b200")
        wait_idle(driver, before)
        slider = driver.find_element(By.CSS_SELECTOR, f'input[type=range][data-path="{DEMAND}"]')
        check_against_cli(exe, source, driver, "b200 chosen")
        # A key the file does not give (training.goodput, an assumed default): the downloaded
        # TOML adds it under [training], beside the chip's line replaced in [inference].
        goodput = driver.find_element(By.CSS_SELECTOR,
                                      'input[type=range][data-path="training.goodput"]')
        move(driver, goodput, Keys.ARROW_LEFT)
        answer = check_against_cli(exe, source, driver, "goodput lowered")
        check_download(exe, source, driver, downloads, answer)

        # The time from a move to its redrawn chart, in the browser: 20 moves, one at a time.
        driver.execute_script("window.scaleopt.state.redraws.length = 0")
        for i in range(20):
            move(driver, slider, Keys.PAGE_DOWN if i % 2 else Keys.PAGE_UP)
        redraws = driver.execute_script("return window.scaleopt.state.redraws")
        assert len(redraws) >= 20, redraws
        print(f"slider move to redrawn chart (solve + 200-point sweep + draw), 20 moves: "
              f"median {statistics.median(redraws):.1f} ms, min {min(redraws):.1f} ms, "
              f"max {max(redraws):.1f} ms")
        check_against_cli(exe, source, driver, "after 20 moves")

        # A bad value typed next to the demand slider: the message of the API and of the CLI.
        text = driver.find_element(By.CSS_SELECTOR, f'input.value[data-path="{DEMAND}"]')
        before = answers(driver)
        text.clear()
        text.send_keys("fast" + Keys.ENTER)
        error = driver.find_element(By.CSS_SELECTOR, f'[data-error-for="{DEMAND}"]')
        WebDriverWait(driver, WAIT_S).until(lambda d: error.text.strip() != "")
        shown = error.text.strip()
        overrides = page_state(driver)[1]
        status, api = post(port, "/api/solve", {"example": EXAMPLE, "set": dict(overrides)})
        assert status == 400 and shown == api["error"], (status, api, shown)
        cli = subprocess.run([exe, "solve", f"examples/{EXAMPLE}.toml", *set_arguments(overrides)],
                             cwd=source, capture_output=True, text=True)
        assert cli.returncode == 2, cli
        assert cli.stderr.strip() == "scaleopt: error: --" + shown, (cli.stderr, shown)
        print(f"a bad value shows the command line's message beside its control: {shown}")
        del before

        # Nothing from another origin, no error in the console (a refused script or fetch, a
        # Content-Security-Policy violation, an exception).
        origins = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => new URL(e.name).origin)")
        assert all(o == f"http://127.0.0.1:{port}" for o in origins), origins
        logged = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and
                  "400 (Bad Request)" not in e["message"]]
        assert not logged, logged
        print(f"{len(origins)} resources, all from the server; no console error")
    finally:
        if driver is not None:
            driver.quit()
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(downloads, ignore_errors=True)
    print("the page answers what the command line answers")


if __name__ == "__main__":
    main()
