"""TLS: an arena started with a certificate and key plays real SDK bots over
TLS (also after a reconnect), refuses plaintext clients, and a tournament
config with tls_cert/tls_key launches its bots over TLS."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from arena_harness import Harness, spawn_bot
from click.testing import CliRunner
from tls_certs import CertFiles, self_signed

from arena.cli import main
from arena.engine.outcome import Termination
from arena.games.store import ResultsStore
from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.protocol.handshake import say_hello

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> CertFiles:
    return self_signed(tmp_path_factory.mktemp("tls"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_sdk_bots_play_over_tls_and_plaintext_is_refused(log_dir: Path, certs: CertFiles) -> None:
    h = Harness(log_dir, tls=(certs.cert, certs.key))
    try:
        tls = ("--tls", "--ca", str(certs.cert))
        procs = [h.spawn("sample_bots.random_bot", n, *tls, "--seed", str(i)) for i, n in enumerate(("tls-a", "tls-b"))]
        h.wait_for(["tls-a", "tls-b"], procs)
        r = h.play("tls-a", "tls-b", "uruguayo", seed=5, target=9)
        assert r.termination is Termination.TARGET_REACHED, r.reason

        # A plaintext client never gets as far as the Hello.
        async def plaintext() -> grpc.StatusCode:
            async with grpc.aio.insecure_channel(h.address) as channel:
                call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
                with pytest.raises(grpc.aio.AioRpcError) as err:
                    await say_hello(call, "tls-a", "")
                return err.value.code()

        assert asyncio.run(plaintext()) is grpc.StatusCode.UNAVAILABLE
        # Nor does the SDK without --tls: it retries, then gives up.
        plain = h.spawn("sample_bots.random_bot", "plain", "--retry-for", "1")
        assert plain.wait() == 1
        assert "cannot reach the arena" in plain.stderr()
        # A client that does not trust the certificate is refused too.
        untrusting = h.spawn("sample_bots.random_bot", "untrusting", "--tls", "--retry-for", "1")
        assert untrusting.wait() == 1

        async def connected() -> set[str]:
            return set(h.arena.bots())

        assert h.call(connected()) == {"tls-a", "tls-b"}
    finally:
        h.close()


def test_tls_bot_reconnects_to_an_arena_that_starts_late(log_dir: Path, certs: CertFiles) -> None:
    port = _free_port()
    early = spawn_bot(log_dir, "sample_bots.random_bot", f"127.0.0.1:{port}", "tls-early", "early-token",
                      "--tls", "--ca", str(certs.cert), "--retry-for", "20")
    try:
        time.sleep(1.0)  # nobody listens yet: the bot retries with backoff, keeping its TLS settings
        assert early.alive(), early.stderr()
        h = Harness(log_dir, f"127.0.0.1:{port}", tls=(certs.cert, certs.key))
        try:
            h.token("tls-early", "early-token")
            h.wait_for(["tls-early"], [early])
        finally:
            h.close()
        assert early.wait() == 0, early.stderr()
    finally:
        early.kill()


def test_tournament_config_with_tls_launches_its_bots_over_tls(tmp_path: Path, certs: CertFiles) -> None:
    cfg = tmp_path / "tls.toml"
    cfg.write_text("\n".join([
        'variant = "argentino"', "games_per_pairing = 2",
        "workers = 1",  # on the tournament's own arena (workers' arenas are loopback-only, plain)
        f'tls_cert = "{certs.cert}"', f'tls_key = "{certs.key}"',
        "[options]", "target = 9",
        "[[bots]]", 'name = "r1"', 'command = "python -m sample_bots.random_bot"',
        "[[bots]]", 'name = "r2"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    result = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress", "--json"])
    assert result.exit_code == 0, result.output
    with ResultsStore.open_existing(cfg.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert len(rows) == 2 and all(r.termination == "target_reached" for r in rows)


def test_serve_command_serves_tls(tmp_path: Path, certs: CertFiles, log_dir: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    token = CliRunner().invoke(main, ["token", "mint", "svc", "--tokens", str(tokens)]).stdout.strip()
    port = _free_port()
    exe = [sys.executable, "-c", "from arena.cli import main; main()"]
    arena = subprocess.Popen(
        [*exe, "serve", "--address", f"127.0.0.1:{port}", "--tokens", str(tokens), "--db", str(tmp_path / "l.sqlite"),
         "--tls-cert", str(certs.cert), "--tls-key", str(certs.key)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert arena.stderr is not None
        assert "(TLS)" in arena.stderr.readline()

        async def hello() -> pb.PlayResponse:
            creds = grpc.ssl_channel_credentials(root_certificates=certs.cert.read_bytes())
            async with grpc.aio.secure_channel(f"127.0.0.1:{port}", creds) as channel:
                call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
                reply = await say_hello(call, "svc", token)
                call.cancel()
                assert isinstance(reply, pb.PlayResponse)
                return reply

        assert asyncio.run(hello()).welcome.bot_name == "svc"
    finally:
        arena.terminate()
        arena.wait(10)


def test_serve_needs_both_tls_files(tmp_path: Path, certs: CertFiles) -> None:
    result = CliRunner().invoke(main, ["serve", "--tokens", str(tmp_path / "t.txt"), "--tls-cert", str(certs.cert)])
    assert result.exit_code == 2
    assert result.stderr == "error: --tls-cert and --tls-key go together\n"


def test_a_certificate_madewith_cryptography_works_too(log_dir: Path, tmp_path: Path) -> None:
    """The fallback for machines without the openssl command."""
    from tls_certs import with_cryptography  # noqa: PLC0415 - the fallback path only

    files = CertFiles(tmp_path / "c.crt", tmp_path / "c.key")
    with_cryptography(files)
    h = Harness(log_dir, tls=(files.cert, files.key))
    try:
        proc = h.spawn("sample_bots.random_bot", "fallback", "--tls", "--ca", str(files.cert))
        h.wait_for(["fallback"], [proc])
    finally:
        h.close()
