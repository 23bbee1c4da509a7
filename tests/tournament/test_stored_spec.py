"""A results database keeps a tournament's config as its canonical document
(``tournament.config.canonical``): every key spelled out, keys sorted,
``spec_version`` set, itself a config that the one parser reads back into
the same value. Databases written before it keep the config as its file
said; they read through the same call into the same value, unchanged."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arena.games.settings import ConfigError
from arena.games.store import ResultsStore
from arena.replay import ReplayError
from arena.replay.audit import verify_store
from arena.replay.stored import stored_config
from arena.tournament.config import SPEC_VERSION, canonical, load_config, parse_config, stored_form, with_overrides

RANDOM = "python -m sample_bots.random_bot"
TOML = f"""
name = "weekly"
variant = "uruguayo"
games_per_pairing = 4
seed = 3
tokens = "tokens.txt"
[options]
target = 15
[limits]
memory_mb = 512
[[bots]]
name = "a"
command = "{RANDOM}"
env = {{ Z = "1", A = "2" }}
[[bots]]
name = "b"
command = ["python", "b.py"]
dir = "bots/b"
cpus = 2
[[bots]]
name = "remote"
"""

BOTS = [{"name": "a", "command": RANDOM}, {"name": "b", "command": ["python", "-m", "x"], "protocol": "stdio"},
        {"name": "c", "command": RANDOM, "dir": "/srv/c", "memory_mb": 256}]
TABLE: list[dict[str, Any]] = [
    {"bots": BOTS},
    {"bots": BOTS[:2], "variant": "venezolano", "pairing": "independent", "alternate_seats": False},
    {"bots": [*BOTS, {"name": "ext"}], "limits": {"processes": 64}, "tokens": "/t", "workers": 3},
    {"bots": BOTS[:2], "format": "match", "sprt": {"elo0": 0, "elo1": 5}, "max_games": 400, "ray": "h:1",
     "ray_runtime_env": {"working_dir": "."}, "batch_pairs": 2},
    {"bots": BOTS[:2], "format": "match", "games": 20},
    {"bots": BOTS, "format": "gauntlet", "games": 6, "challenger": "c", "concurrency": 3},
    {"bots": BOTS, "format": "swiss", "rounds": 2, "games_per_pairing": 2},
    {"bots": BOTS, "format": "challengers", "challengers": ["b"], "seed": 2**62},
    {"bots": BOTS[:2], "options": {"seats": 6}, "time_control": {"move_seconds": 0.25, "bank_seconds": 0},
     "tls_cert": "c.pem", "tls_key": "k.pem", "address": "0.0.0.0:5000", "sandbox": "none",
     "containment": "best-effort", "absent_wait_seconds": 2.5, "start_seconds": 9},
]


@pytest.mark.parametrize("data", TABLE, ids=lambda d: str(d.get("format", "round_robin")))
def test_the_canonical_document_reads_back_as_the_same_config(data: dict[str, Any]) -> None:
    config = parse_config(data, base=Path("/cfg"))
    doc = canonical(config)
    again = parse_config(doc, base=Path("/elsewhere"))  # its paths are resolved: no base needed
    assert again == config and again.scale == config.scale and again.name == config.name
    assert canonical(again) == doc
    text = json.dumps(doc)
    assert json.loads(text) == doc and list(doc) == sorted(doc) and doc["spec_version"] == SPEC_VERSION


def test_every_key_is_spelled_out_with_its_resolved_value() -> None:
    doc = canonical(parse_config(tomllib.loads(TOML), base=Path("/cfg")))
    assert doc["options"] == {"target": 15, "seats": 2, "flor": True, "falta_envido": "leader", "pico_a_pico": False}
    assert doc["pairing"] == "independent" and doc["absent_wait_seconds"] == 60.0 and doc["format"] == "round_robin"
    assert doc["time_control"] == {"move_seconds": 2.0, "bank_seconds": 30.0} and doc["tokens"] == "/cfg/tokens.txt"
    a, b, remote = doc["bots"]
    assert a["command"] == ["python", "-m", "sample_bots.random_bot"] and list(a["env"]) == ["A", "Z"]
    assert a["memory_mb"] == 512 and a["cpus"] == 1 and b["cpus"] == 2 and b["dir"] == "/cfg/bots/b"
    assert remote == {"name": "remote"}  # a bot that connects by itself has nothing else to say
    assert doc["limits"]["memory_mb"] == 512  # what stands for the bots that connect by themselves
    assert "workers" not in doc  # not asked for: the machine decides, at each start


def test_a_match_document_has_no_games_per_pairing() -> None:
    doc = canonical(parse_config(TABLE[3]))
    assert "games_per_pairing" not in doc and doc["sprt"]["alpha"] == 0.05 and doc["max_games"] == 400


_names = st.text("abcdefgh", min_size=1, max_size=6)
_bot = st.fixed_dictionaries({"name": _names}, optional={
    "command": st.sampled_from([RANDOM, ["python", "-m", "x"]]),
    "env": st.dictionaries(st.text("ABCXYZ_", min_size=1, max_size=4), st.text(max_size=5), max_size=3),
    "memory_mb": st.integers(64, 4096), "cpus": st.integers(1, 8), "dir": st.sampled_from(["/srv/x", "rel/y"]),
    "protocol": st.sampled_from(["grpc", "stdio"])})
_config = st.fixed_dictionaries({"bots": st.lists(_bot, min_size=2, max_size=5, unique_by=lambda b: b["name"])},
                                optional={
    "name": st.text(max_size=10), "variant": st.sampled_from(["argentino", "uruguayo", "venezolano"]),
    "games_per_pairing": st.integers(1, 8), "pairing": st.sampled_from(["duplicate", "independent"]),
    "seed": st.integers(0, 2**64) | st.none(), "concurrency": st.integers(1, 16),
    "time_control": st.fixed_dictionaries({}, optional={"move_seconds": st.floats(0.01, 3600),
                                                        "bank_seconds": st.floats(0, 86400)}),
    "options": st.fixed_dictionaries({}, optional={"target": st.integers(1, 40), "flor": st.booleans()}),
    "limits": st.fixed_dictionaries({}, optional={"processes": st.integers(8, 512)}),
    "tokens": st.sampled_from(["t.txt", "/abs/t.txt"]), "workers": st.integers(1, 8),
    "absent_wait_seconds": st.floats(0, 86400), "alternate_seats": st.booleans(),
    "sandbox": st.sampled_from(["bwrap", "none"]),
    "format": st.sampled_from(["round_robin", "swiss", "challengers"])})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_config, st.sampled_from([None, Path("/cfg")]))
def test_any_config_reads_back_from_its_canonical_document(data: dict[str, Any], base: Path | None) -> None:
    if data.get("format") == "swiss":
        data["rounds"] = 1
    if data.get("format") == "challengers":
        data["challengers"] = [data["bots"][0]["name"]]
    try:
        config = parse_config(data, base=base)
    except ConfigError:
        assume(False)
        return
    doc = canonical(config)
    assert parse_config(json.loads(json.dumps(doc)), base=base) == config
    assert canonical(parse_config(doc)) == doc


def test_an_old_store_reads_as_the_same_toml_reads_now(tmp_path: Path) -> None:
    """A database written before the canonical document keeps the file's dict:
    the same call reads it, into a value equal to the file's as read now, and
    its signatures still hold."""
    (tmp_path / "t.toml").write_text(TOML)
    now = load_config(tmp_path / "t.toml")
    db = tmp_path / "old.sqlite"
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", tomllib.loads(TOML))  # as the file said it: the stored form of earlier versions
    with ResultsStore.open_existing(db) as store:
        old = stored_config(store.get_meta("config"), base=tmp_path).tournament
        assert not verify_store(store).findings and verify_store(store).unsigned is None
        assert store.get_meta("config") == tomllib.loads(TOML)  # read, never rewritten
    assert old == now and canonical(now) == canonical(old)
    assert stored_form(now) != tomllib.loads(TOML)  # and a new run stores the canonical document


def test_a_new_store_keeps_the_canonical_document_signed(tmp_path: Path) -> None:
    config = parse_config(TABLE[2], base=tmp_path)
    db = tmp_path / "new.sqlite"
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", stored_form(config))
    with ResultsStore.open_existing(db) as store:
        assert json.loads(store.config_text() or "null") == canonical(config)
        assert not verify_store(store).findings and verify_store(store).unsigned is None
        assert stored_config(store.get_meta("config")).tournament == config


def test_overrides_apply_to_the_typed_value() -> None:
    config = parse_config(tomllib.loads(TOML), base=Path("/cfg"))
    changed = with_overrides(config, concurrency=4, seed=None)
    assert changed.concurrency == 4 and changed.seed == 3 and changed.bots == config.bots


def test_a_later_spec_version_is_refused_naming_the_key() -> None:
    doc = canonical(parse_config(TABLE[0]))
    with pytest.raises(ConfigError, match=r"^spec_version: this truco-arena reads version 1, the config says 2"):
        parse_config({**doc, "spec_version": 2})
    with pytest.raises(ReplayError, match="spec_version"):
        stored_config({**doc, "spec_version": 2})


@pytest.mark.integration
def test_a_store_in_the_old_form_resumes_verifies_and_keeps_its_config_text(tmp_path: Path) -> None:
    """A file of an earlier version: the config as its TOML said it (here a
    run of 4 games a pairing of which 2 were played). Resume reads it through
    the same parser, plays the missing games, and leaves the stored text as
    it was; ``--verify`` checks every signature and replay."""
    from click.testing import CliRunner

    from arena.cli import main

    lines = ['name = "old"', "games_per_pairing = 2", "seed = 5", 'sandbox = "none"', "[options]", "target = 6",
             "[[bots]]", 'name = "r0"', f'command = "{RANDOM}"', "[[bots]]", 'name = "r1"', f'command = "{RANDOM}"']
    cfg = tmp_path / "old.toml"
    cfg.write_text("\n".join(lines) + "\n")
    db = tmp_path / "old.sqlite"
    run = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress", "--workers", "1", "--json"])
    assert run.exit_code == 0, run.output
    cfg.write_text(cfg.read_text().replace("games_per_pairing = 2", "games_per_pairing = 4"))
    with ResultsStore.create_or_open(db) as store:
        assert store.get_meta("config") == canonical(load_config(cfg)) | {"games_per_pairing": 2}
        store.set_meta("config", tomllib.loads(cfg.read_text()))  # what earlier versions stored (and signed)
        text = store.config_text()
    resumed = CliRunner().invoke(main, ["tournament", "resume", str(db), "--no-progress", "--workers", "1", "--json"])
    assert resumed.exit_code == 0, resumed.output
    with ResultsStore.open_existing(db) as store:
        assert store.count() == 4 and store.config_text() == text
        assert stored_config(store.get_meta("config"), base=tmp_path).tournament == load_config(cfg)
    verified = CliRunner().invoke(main, ["standings", str(db), "--verify"])
    assert verified.exit_code == 0, verified.output
