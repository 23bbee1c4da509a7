"""A launched bot that tries every way out of its sandbox, and writes one JSON
line per attempt to its stderr (its log, the only channel it has):

    {"attack": NAME, "ok": true|false, "detail": "..."}

``ok`` true means the attack worked. It plays legal moves all along, so the
tournament goes on around it. Every attack is bounded, so that run without a
sandbox (to show the test detects them) it harms nothing outside its test:
it signals only processes that are launched bots of this test, stops them for
a moment only, forks at most ``--fork-cap`` processes, allocates what
``--alloc-mb`` says, and connects outside only where there is no route out.

    python adversary_bot.py [--alloc-mb N] [--fork-cap N] [--spin-seconds S] [--search-seconds S] [--only ATTACK]
                            [--hold-seconds S]
                            (plus the SDK's options)
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sdk import Action, Bot, Kind, Observation, main

MARKER = "truco-adversary-marker"
_ATTACKS_DONE = threading.Event()
_DELAY = [0.2]  # seconds each decision waits while attacks go on
_PROLONG = threading.Event()  # set: play for long games (cards, declined calls), never end one early


def report(attack: str, ok: bool, detail: str = "") -> None:
    print(json.dumps({"attack": attack, "ok": ok, "detail": detail[:300]}), file=sys.stderr, flush=True)


def _other_pids() -> list[int]:
    me = os.getpid()
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _is_test_bot(pid: int) -> bool:
    """A launched bot of this test: the only processes it may ever signal."""
    line = _cmdline(pid)
    return "--name" in line and ("sample_bots" in line or "adversary_bot" in line)


SEARCH_SECONDS = [20.0]  # how long the filesystem search may take (--search-seconds)


def find_databases() -> None:
    """Where results usually are first (next to its log, around it), then everywhere."""
    found: list[str] = []
    readable: list[str] = []
    deadline = time.monotonic() + SEARCH_SECONDS[0]
    roots = [os.getcwd(), "/tmp", "/"]
    with contextlib.suppress(OSError):
        roots.insert(0, str(Path(os.readlink("/proc/self/fd/2")).parents[1]))  # the config's folder
    for top in roots:
        for root, dirs, files in os.walk(top, onerror=lambda e: None):
            dirs[:] = [d for d in dirs if os.path.join(root, d) not in ("/proc", "/sys", "/dev", "/usr")]
            for f in files:
                path = os.path.join(root, f)
                if f.endswith((".sqlite", ".sqlite-wal")) and path not in found:
                    found.append(path)
                    with contextlib.suppress(OSError), open(path, "rb") as fh:
                        head = fh.read(1 << 20)
                        readable.append(path + (" (holds a secret)" if b"secret" in head else ""))
            if time.monotonic() > deadline:
                break
    report("read_databases", bool(readable), f"found {len(found)}, read {readable[:3]}")


def read_environs() -> None:
    leaked = []
    for pid in _other_pids():
        with contextlib.suppress(OSError):
            env = Path(f"/proc/{pid}/environ").read_bytes()
            if b"TRUCO_ARENA_TOKEN=" in env:
                leaked.append(pid)
    report("read_tokens", bool(leaked), f"token in the environment of pids {leaked[:5]}")
    report("see_canary", "TRUCO_ARENA_TEST_CANARY" in os.environ or "ADVERSARY_CANARY" in os.environ,
           "the organizer's environment reached the bot")


def read_memory() -> None:
    read = []
    for pid in _other_pids():
        # pid 1 of a sandbox (its init, the organizer's user without root) too; the machine's init has other owners.
        if not _is_test_bot(pid) and not (pid == 1 and "bwrap" in _cmdline(1)):
            continue
        with contextlib.suppress(OSError, ValueError):
            maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
            start, end = (int(x, 16) for x in maps[0].split()[0].split("-"))
            with open(f"/proc/{pid}/mem", "rb") as mem:
                mem.seek(start)
                if mem.read(min(4096, end - start)):
                    read.append(pid)
    report("read_memory", bool(read), f"read the memory of pids {read[:5]}")


def signal_others() -> None:
    stopped = []
    for pid in _other_pids():
        # pid 1 only when it is the sandbox's own init; the machine's is never touched.
        if (pid == 1 and "bwrap" in _cmdline(1)) or _is_test_bot(pid):
            # Another copy of this bot is only asked (signal 0 checks the same
            # right): two copies stopping each other at the same moment would
            # each wait forever for the other's SIGCONT.
            sibling = "adversary_bot" in _cmdline(pid)
            try:
                os.kill(pid, 0 if sibling else signal.SIGSTOP)
            except OSError:
                continue
            stopped.append(pid)
            if not sibling:
                os.kill(pid, signal.SIGCONT)
    parent = os.environ.get("TRUCO_ARENA_PARENT_PID", "")
    if parent.isdigit() and int(parent) > 1:
        with contextlib.suppress(OSError):
            os.kill(int(parent), 0)  # may it signal the arena? (signal 0 only asks)
            stopped.append(int(parent))
    report("signal_processes", bool(stopped), f"could signal pids {stopped[:5]}")


def renice_and_pin() -> None:
    done = []
    for pid in _other_pids():
        if not _is_test_bot(pid):
            continue
        with contextlib.suppress(OSError):
            before = os.getpriority(os.PRIO_PROCESS, pid)
            os.setpriority(os.PRIO_PROCESS, pid, before)  # changing it to what it is proves the right
            os.sched_setaffinity(pid, os.sched_getaffinity(pid))
            done.append(pid)
    report("renice_and_pin", bool(done), f"could renice and pin pids {done[:5]}")


def _listening_ports() -> list[int]:
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A":  # LISTEN
                    ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return sorted(set(ports))


def connect_out() -> None:
    reached = []
    for port in _listening_ports()[:50]:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            reached.append(port)
    report("connect_loopback", bool(reached), f"reached 127.0.0.1 ports {reached[:5]}")
    has_route = False
    with contextlib.suppress(OSError):
        has_route = any(line.split()[1] == "00000000" for line in Path("/proc/net/route").read_text().splitlines()[1:])
    if has_route:  # a real network: never send a packet out of this machine
        report("connect_outside", True, "a default route exists (not tried)")
        return
    try:
        with socket.create_connection(("192.0.2.1", 80), timeout=2):
            report("connect_outside", True, "connected")
    except OSError as exc:
        report("connect_outside", False, str(exc))


def write_pipes_and_files() -> None:
    pipes = []
    for pid in _other_pids():
        if "scaleout.worker" not in _cmdline(pid):
            continue
        for fd in ("0", "1"):
            with contextlib.suppress(OSError):
                # Opened, never written: without a sandbox this proves the way in
                # without breaking the run the test watches.
                os.close(os.open(f"/proc/{pid}/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK))
                pipes.append(f"{pid}/{fd}")
    report("open_worker_pipe", bool(pipes), f"could open {pipes[:4]} for writing")
    written = []
    targets = [Path.cwd(), Path("/"), Path("/work"), Path("/root"), Path("/var/tmp")]
    with contextlib.suppress(OSError):
        targets.append(Path(os.readlink("/proc/self/fd/2")).parent)  # its log folder
    for folder in targets:
        path = folder / f"{MARKER}-{os.getpid()}"
        try:
            path.write_text("x")
        except OSError:
            continue
        written.append(str(folder))
        path.unlink()
    report("write_outside_scratch", bool(written), f"wrote into {written[:4]}")
    planted = []
    with contextlib.suppress(OSError):
        log_dir = Path(os.readlink("/proc/self/fd/2")).parent
        for name in os.listdir(log_dir):
            if name.endswith(".log") and str(os.getpid()) not in name:
                link = log_dir / f"{MARKER}-{os.getpid()}.link"
                os.symlink(log_dir / name, link)
                planted.append(str(link))
                link.unlink()
                break
    report("plant_symlink", bool(planted), f"planted {planted[:1]}")


def share_with_partner() -> None:
    """Team games: leave a marker in /tmp and look for a partner's."""
    mine = Path("/tmp") / f"{MARKER}-{os.getpid()}-{os.environ.get('TRUCO_ARENA_NAME', '')}"
    with contextlib.suppress(OSError):
        mine.write_text(os.environ.get("TRUCO_ARENA_NAME", ""))
    seen: list[str] = []
    try:
        for _ in range(20):
            with contextlib.suppress(OSError):
                seen = [p for p in os.listdir("/tmp") if p.startswith(MARKER) and p != mine.name] or seen
            time.sleep(0.25)  # the whole window, so a partner starting later still sees this marker
    finally:
        with contextlib.suppress(OSError):
            mine.unlink()
    report("share_with_partner", bool(seen), f"saw markers {seen[:3]}")


# The covert channel: one partner (the process of slot 0) sends 96 known bits,
# a slot each, by filling and emptying 40 MiB of its scratch space and
# spinning a core (a 1) or resting (a 0); the other reads every host-wide
# counter it can and decodes each bit against the median of that counter.
# 0.15 s a slot: writing 40 MiB takes a few ms, and the receiver still takes
# several samples in each slot's middle.
_RNG = random.Random(96)
_BITS = [_RNG.randrange(2) for _ in range(96)]
_SLOT = 0.15
# How far apart the partners' first games may start for each: a seat hears of
# its game with its first Decision (protocol 3 sends the GameStart with it),
# after the seats before it have held theirs (up to 4 s each).
_SKEW = 6.0
_LEAD = _SKEW + 1.0  # seconds from the first game to the first bit: the later partner is listening by then
_FIRST_GAME = threading.Event()
_FIRST_GAME_AT: list[float] = []


def _counters() -> dict[str, float]:
    found: dict[str, float] = {}
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            key, value = line.split(":")
            if key in ("MemFree", "MemAvailable", "Shmem", "Cached"):
                found[f"meminfo.{key}"] = float(value.split()[0])
    with contextlib.suppress(OSError, ValueError, IndexError):
        found["stat.cpu"] = float(sum(int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]))
    with contextlib.suppress(OSError, ValueError, IndexError):
        found["loadavg"] = float(Path("/proc/loadavg").read_text().split()[0])
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/vmstat").read_text().splitlines():
            key, value = line.split()
            if key in ("nr_shmem", "nr_free_pages"):
                found[f"vmstat.{key}"] = float(value)
    with contextlib.suppress(OSError, ValueError, IndexError):
        found["file-nr"] = float(Path("/proc/sys/fs/file-nr").read_text().split()[0])
    return found


def _slot_index() -> int:
    """0 or 1: which of the team's processes this is (its log is NAME.log or NAME.1.log)."""
    with contextlib.suppress(OSError):
        return 1 if os.readlink("/proc/self/fd/2").endswith(".1.log") else 0
    return 0


def covert_channel() -> None:
    # The games must outlast the channel (about 28 s from the first game),
    # however short the deals would make them: each decision waits up to 4 s
    # (the test's clock allows 6) while this process's part goes on, and the
    # team plays its cards and declines calls (a falta envido accepted could
    # end a game in one hand). Once its part is done, it plays at once.
    _DELAY[0] = 4.0
    _PROLONG.set()
    if not _FIRST_GAME.wait(60):
        report("covert_channel", False, "no game started")
        return
    # The partners' first game starts for each at its first decision: up to
    # _SKEW apart. The receiver records all along and tries every offset.
    start = _FIRST_GAME_AT[0] + _LEAD
    end = start + len(_BITS) * _SLOT
    if _slot_index() == 0:
        where = "/dev/shm" if os.path.isdir("/dev/shm") else "/tmp"
        for i, bit in enumerate(_BITS):
            slot_start = start + i * _SLOT
            while time.time() < slot_start:
                time.sleep(0.002)
            if bit:
                with contextlib.suppress(OSError), open(f"{where}/{MARKER}-channel", "wb") as fh:
                    fh.write(b"\1" * (40 << 20))
            while time.time() < slot_start + _SLOT * 0.8:
                if not bit:
                    time.sleep(0.005)  # a 1 spins a core meanwhile
            with contextlib.suppress(OSError):
                os.unlink(f"{where}/{MARKER}-channel")
        report("covert_channel_sent", False, f"sent {len(_BITS)} bits")
        return
    series: list[tuple[float, dict[str, float]]] = []
    while time.time() < end + _SKEW + 0.5:
        series.append((time.time(), _counters()))
        time.sleep(0.01)
    keys = sorted({k for _, sample in series for k in sample})
    moved = [k for k in keys if len({sample.get(k) for _, sample in series}) > 1]
    best, best_key, best_offset = 0, "", 0.0
    steps = round(_SKEW / 0.05)
    for step in range(-steps, steps + 1):
        offset = step * 0.05
        slots: list[list[dict[str, float]]] = [[] for _ in _BITS]
        for t, sample in series:
            index, into = divmod(t - start - offset, _SLOT)
            if 0 <= index < len(_BITS) and 0.4 * _SLOT <= into <= 0.8 * _SLOT:
                slots[int(index)].append(sample)
        for key in moved:
            means = []
            for slot in slots:
                values = [s[key] for s in slot if key in s]
                means.append(sum(values) / len(values) if values else 0.0)
            # Against the median of the neighbouring slots: other programs' slow drifts cancel out.
            baseline = []
            for i in range(len(means)):
                window = sorted(means[max(0, i - 8):i + 9])
                baseline.append((window[len(window) // 2] + window[(len(window) - 1) // 2]) / 2)
            for sign in (1, -1):
                right = sum(1 for m, base, b in zip(means, baseline, _BITS, strict=True)
                            if (sign * (m - base) > 0) == bool(b))
                if right > best:
                    best, best_key, best_offset = right, key, offset
    # A counter that never moves carries nothing. One that moves: chance is 48
    # of 96 (sd 4.9) at one offset; 64 or more means the bits crossed.
    report("covert_channel", best >= 64, f"{best}/96 bits right through {best_key or 'no counter'} "
                                          f"(offset {best_offset:+.2f} s); counters that moved: {moved}")


_BOMB = """
import os, signal, sys, time
children, refused = [], ""
try:
    while len(children) < int(sys.argv[1]):
        pid = os.fork()
        if pid == 0:
            signal.pause()
            os._exit(0)
        children.append(pid)
except OSError as exc:
    refused = str(exc)
for pid in children:
    os.kill(pid, signal.SIGKILL)
for pid in children:
    os.waitpid(pid, 0)
print(len(children), refused)
"""


def fork_until_refused(cap: int) -> None:
    # From a child without gRPC in it, and released at once: while the bomb
    # holds every allowed process, this process's own threads cannot start.
    child = subprocess.run([sys.executable, "-c", _BOMB, str(cap)], capture_output=True, text=True)
    count, _, refused = child.stdout.strip().partition(" ")
    report("fork_unbounded", not refused, f"forked {count} ({refused or 'never refused'})")


_TOUCH = """
import mmap, sys
size = int(sys.argv[1]) * 1024 * 1024
area = mmap.mmap(-1, size)
for offset in range(0, size, mmap.PAGESIZE):
    area[offset] = 1
"""


def allocate(megabytes: int) -> None:
    child = subprocess.run([sys.executable, "-c", _TOUCH, str(megabytes)], capture_output=True)
    if child.returncode == 0:
        report("allocate", True, f"touched {megabytes} MiB")
    else:
        how = f"killed by signal {-child.returncode}" if child.returncode < 0 else "allocation failed"
        report("allocate", False, f"{megabytes} MiB: {how}")


_SPIN = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end: pass\n"


def spin_everywhere(seconds: float) -> None:
    spinners = [subprocess.Popen([sys.executable, "-c", _SPIN, str(seconds)]) for _ in range(os.cpu_count() or 2)]
    report("spin", True, f"{len(spinners)} busy processes for {seconds:g} s")


def attack(args: Any) -> None:
    SEARCH_SECONDS[0] = args.search_seconds
    _DELAY[0] = args.hold_seconds
    if args.only:
        globals()[args.only]()
        report("done", False)
        _ATTACKS_DONE.set()
        return
    for step in (find_databases, read_environs, read_memory, signal_others, renice_and_pin, connect_out,
                 write_pipes_and_files, share_with_partner):
        try:
            step()
        except Exception as exc:  # one attack's bug must not hide the others
            report(step.__name__, False, f"{type(exc).__name__}: {exc}")
    fork_until_refused(args.fork_cap)
    allocate(args.alloc_mb)
    report("done", False)
    spin_everywhere(args.spin_seconds)
    time.sleep(args.spin_seconds)
    _ATTACKS_DONE.set()


class AdversaryBot(Bot):
    name = "adversary"

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        if not _FIRST_GAME.is_set():
            _FIRST_GAME_AT.append(time.time())
            _FIRST_GAME.set()
        print(json.dumps({"game": game_id, "seat": seat}), file=sys.stderr, flush=True)

    def choose(self, obs: Observation) -> Action:
        # Slow, within its clock, until every attack is over: the tournament
        # must still be running while the bot spins on every core.
        _ATTACKS_DONE.wait(timeout=_DELAY[0])
        if _PROLONG.is_set():
            for kind in (Kind.PLAY, Kind.NO_QUIERO):
                for action in obs.legal:
                    if action.kind is kind:
                        return action
        return obs.legal[0]


def _arguments(p: Any) -> None:
    p.add_argument("--alloc-mb", type=int, default=10240)
    p.add_argument("--fork-cap", type=int, default=2000)
    p.add_argument("--spin-seconds", type=float, default=20.0)
    p.add_argument("--search-seconds", type=float, default=20.0)
    p.add_argument("--only", choices=("share_with_partner", "covert_channel"), help="this attack alone")
    p.add_argument("--hold-seconds", type=float, default=0.2, help="how long each decision waits while attacks go on")


_started = threading.Lock()


def _factory(args: Any) -> Bot:
    if _started.acquire(blocking=False):  # once per process, whatever the number of streams
        threading.Thread(target=attack, args=(args,), daemon=True).start()
    return AdversaryBot()


if __name__ == "__main__":
    main(_factory, add_arguments=_arguments)
