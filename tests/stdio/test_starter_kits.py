"""The starter kits of sample_bots/kits: each builds with its Debian
toolchain (once per session), passes check-bot behind the stdio bridge, and
plays a tournament in the default sandbox against the others and a sample
bot without a single game lost by a failure. The toolchains are .ci/run's:
gcc, g++, nodejs, default-jdk-headless, rustc, golang-go."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.store import ResultsStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]

KITS = Path(__file__).resolve().parents[2] / "sample_bots" / "kits"
JAVA = "java"  # /usr/bin/java, a link through /etc/alternatives, which the sandbox shows
BUILD = {
    "c": [["gcc", "-O2", "-Wall", "-Werror", "-o", "bot", "bot.c"]],
    "cpp": [["g++", "-O2", "-Wall", "-Werror", "-o", "bot", "bot.cpp"]],
    "js": [],
    "java": [["javac", "Bot.java"]],
    "rust": [["rustc", "-O", "-o", "bot", "bot.rs"]],
    "go": [["go", "build", "-o", "bot", "bot.go"]],
}


# Short clocks, as tests/compliance uses: the kits answer in milliseconds.
FAST = ["--games", "2", "--move-seconds", "1", "--bank-seconds", "2", "--timeout", "10"]


def command(lang: str, folder: Path) -> list[str]:
    """The kit's command line, with absolute paths (check-bot runs it from elsewhere)."""
    if lang == "js":
        return ["node", str(folder / "bot.js")]
    if lang == "java":
        return [JAVA, "-Xmx64m", "-XX:+UseSerialGC", "-cp", str(folder), "Bot"]
    return [str(folder / "bot")]


@pytest.fixture(scope="session")
def kits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every kit copied and built once."""
    root = tmp_path_factory.mktemp("kits")
    env = dict(os.environ, GOCACHE=str(root / ".gocache"), GOPATH=str(root / ".gopath"), GOFLAGS="-mod=mod")
    for lang, steps in BUILD.items():
        folder = root / lang
        shutil.copytree(KITS / lang, folder)
        for step in steps:
            done = subprocess.run(step, cwd=folder, env=env, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, f"{lang}: {' '.join(step)}: {done.stderr}"
    return root


def test_each_kit_is_short_and_has_a_five_line_readme() -> None:
    for lang in BUILD:
        sources = [p for p in (KITS / lang).iterdir() if p.name != "README.md"]
        assert len(sources) == 1 and len(sources[0].read_text().splitlines()) <= 60, sources
        assert len((KITS / lang / "README.md").read_text().splitlines()) == 5


@pytest.mark.parametrize("lang", sorted(BUILD))
def test_a_kit_passes_check_bot(kits: Path, lang: str, tmp_path: Path) -> None:
    cmd = [sys.executable, "-c", "from arena.cli import main; main()", "check-bot", "--json", "--log-dir",
           str(tmp_path), *FAST, "--stdio", "--", *command(lang, kits / lang)]
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = {c["name"]: c["verdict"] for c in json.loads(done.stdout)["checks"]}
    assert set(verdicts.values()) == {"pass"} and len(verdicts) == 17, verdicts


def test_the_kits_play_a_tournament_in_the_sandbox(kits: Path) -> None:
    lines = ['name = "kits"', 'variant = "uruguayo"', "games_per_pairing = 2", "concurrency = 2", "workers = 1"]
    for lang in BUILD:
        argv = {"js": ["node", "bot.js"], "java": [JAVA, "-Xmx64m", "-XX:+UseSerialGC", "-cp", ".", "Bot"]}.get(
            lang, ["./bot"])
        lines += ["[[bots]]", f'name = "{lang}"', f'dir = "{lang}"', f"command = {argv!r}".replace("'", '"'),
                  'protocol = "stdio"']
    lines += ["[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"']
    config = kits / "kits.toml"
    config.write_text("\n".join(lines) + "\n")
    db = kits.parent / "kits-results.sqlite"  # outside every bot's folder
    result = CliRunner().invoke(main, ["tournament", "run", str(config), "--db", str(db), "--no-progress"])
    assert result.exit_code == 0, result.output
    with ResultsStore.open_existing(db) as store:
        rows = list(store.games())
    assert len(rows) == 7 * 6  # 21 pairings, 2 games each
    assert [r.reason for r in rows if r.faulty_bot is not None] == []
