"""The browser tests' fixtures: a real small tournament and its report, and a
headless Debian Chromium driven by Selenium through chromium-driver."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

from arena.cli import main

ARTIFACTS = Path(__file__).parent / "artifacts"
# No network, no sandbox (CI runs as root), nothing that phones home.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")
INSTALL_HINT = ("the browser tests need Debian's chromium and chromium-driver: "
                "apt-get update && apt-get install -y chromium chromium-driver")


@pytest.fixture(scope="session")
def report_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament of the random and heuristic sample bots over gRPC, run through the CLI."""
    directory = tmp_path_factory.mktemp("web-tournament")
    config = directory / "web.toml"
    config.write_text("\n".join([
        'name = "web"', 'variant = "uruguayo"', "games_per_pairing = 2", "seed = 21", "concurrency = 2",
        "[options]", "target = 15", "[time_control]", "move_seconds = 5.0", "bank_seconds = 30.0",
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
        "[[bots]]", 'name = "heuristic"', 'command = "python -m sample_bots.heuristic"',
    ]) + "\n")
    result = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress"])
    assert result.exit_code == 0, result.output
    return config.with_suffix(".sqlite")


@pytest.fixture(scope="session")
def report_dir(report_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("web-report") / "report"
    result = CliRunner().invoke(main, ["report", str(report_db), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.fail(INSTALL_HINT)
    options = Options()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    options.add_argument("--window-size=1300,1000")
    # An explicit driver path: Selenium then never tries to download one.
    session = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield session
    finally:
        session.quit()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    print(f"\nscreenshots of the report go to {ARTIFACTS}")
    return ARTIFACTS
