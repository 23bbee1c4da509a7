"""What the sandbox costs: tournament games per second and bot start-up time,
with ``sandbox = "bwrap"`` (the default) and ``sandbox = "none"``, side by
side in one run, at the containment level this user gets (printed first).

    python benchmarks/sandbox.py [--runs 5] [--games 20] [--concurrency 1,4] [--starts 10]
                                 [--arms none,none+family,...] [--paired]
                                 [--user-python PYTHON [--uid 4242]]

Run as root with ``--user-python`` (an interpreter any user can execute,
with the arena installed, e.g. Debian's python3.11 in a venv outside /root),
it then runs itself again as the ordinary ``--uid``: once with a cgroup v1
subtree delegated to it (made and chowned here, as an administrator would)
and once with nothing delegated (``containment = "best-effort"``), so every
mode's figures come out of one run.

Games/s: a round robin of 2 sample random bots (``--games`` games per
pairing, duplicate pairs, uruguayo to 30) on this process's arena (one
worker, so both arms run the same number of processes), a fresh results file
per run; the figure counts from the first game's start to the last game's
end, as ``benchmarks/tournament.py`` does. The arms alternate run by run, so
the machine's noise is shared; medians are printed with the ratio. Beside
games/s, CPU seconds per game of the arena's process and of the bots' (every
process below this one, from /proc), from the first game's end to the
last's: a busy machine moves it far less than wall time. ``--arms`` adds
arms between the two that each change one factor (``ARMS``); ``--paired``
runs each arm at the same time as a run without the sandbox, in two
processes, each counted only while both play, and prints the medians of
the ratios of the pairs.

Start-up: from launching one random bot to its Hello being admitted by the
arena, ``--starts`` times per arm, alternating; the medians and their
difference. Beside it, the sandbox's own chain (control groups joined,
limits, bwrap, namespaces, mounts, the bot's user) around ``/bin/true``:
wall and CPU time. On a loaded machine every wall figure grows with the
load (each process of the chain waits for a core); the CPU figure does not.
Every mode's figures are printed in one table at the end. Goal
(docs/sandbox.md): under 5% fewer games/s and under 100 ms more start-up
per bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.sandbox import Containment, Sandbox, cgroups, probe
from arena.sandbox.limits import Limits
from arena.server import Arena
from arena.tournament.config import BotSpec, parse_config, stored_form
from arena.tournament.launcher import LaunchedBot, LaunchSpec, launch, stop
from arena.tournament.runner import run_tournament
from arena.tournament.scale import ScaleOut

RANDOM = ("python", "-m", "sample_bots.random_bot")


def _config(sandbox: str, games: int, concurrency: int) -> dict[str, object]:
    return {
        "name": "bench", "variant": "uruguayo", "games_per_pairing": games, "seed": 1,
        "concurrency": concurrency, "sandbox": sandbox, "workers": 1, "containment": "best-effort",
        "time_control": {"move_seconds": 5.0, "bank_seconds": 60.0},
        "bots": [{"name": f"random{i}", "command": " ".join(RANDOM)} for i in range(2)],
    }


# The arms of the games/s figure: the two a config chooses ("none" and
# "bwrap"), and between them arms that each change one factor of the
# sandbox's cost, to tell where it comes from (patched into this process's
# runner only for the length of a run, ``_arm``).
ARMS = {
    "none": "no sandbox; bots dial the arena's TCP port (sandbox = \"none\")",
    "none+family": "no sandbox; each bot dials a Unix socket and gRPC server of its own (as sandboxed bots do)",
    "bwrap+shared": "sandbox, cgroups; every bot dials the one shared Unix socket",
    "bwrap-cgroups": "sandbox, a socket per bot, no control groups (resource limits instead)",
    "bwrap-quota": "sandbox, a socket per bot, control groups without the CPU quota",
    "bwrap-memory": "sandbox, a socket per bot, only the memory and pids control groups (no cpu, cpuacct, cpuset)",
    "bwrap-cpuacct": "sandbox, a socket per bot, control groups without the cpuacct ones (no CPU accounting)",
    "bwrap-layered": "sandbox, a socket per bot, cgroup v1 groups one level deeper, in a group of the run (as before)",
    "bwrap": "sandbox, cgroups, a socket per bot (sandbox = \"bwrap\", the default)",
}
MAIN_ARMS = "none,bwrap"
_TICK = os.sysconf("SC_CLK_TCK")


def _tree_cpu() -> tuple[float, float]:
    """CPU seconds so far of (this process, every process below it): user and
    system time of each live process of the tree, threads included, plus what
    each has reaped of its children (bwrap's and the shells' included)."""
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()  # field 3 (state) on; utime..cstime are 14..17
        parent[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = sum(int(x) for x in fields[11:15]) / _TICK
    me = os.getpid()
    below, todo = 0.0, [me]
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    while todo:
        for child in children.get(todo.pop(), []):
            below += used.get(child, 0.0)
            todo.append(child)
    return used.get(me, 0.0), below


@contextlib.contextmanager
def _arm(name: str, folder: Path) -> Iterator[str]:
    """This process's runner set up as arm ``name``; yields the config's sandbox value."""
    from arena.sandbox import session
    from arena.tournament import supervisor
    saved: list[tuple[object, str, object]] = []

    def patch(owner: object, attr: str, value: object) -> None:
        saved.append((owner, attr, getattr(owner, attr)))
        setattr(owner, attr, value)

    if name == "none+family":
        launch_as_usual = supervisor.Supervisor._launch

        async def launch_on_own_socket(self: supervisor.Supervisor, bot: BotSpec, slot: int) -> LaunchedBot:
            path = folder / f"{bot.name}.sock"
            await self.arena.listen_family(bot.name, path, self.config.seats_per_bot, self.streams)
            address, self.address = self.address, f"unix:{path}"
            try:
                return await launch_as_usual(self, bot, slot)
            finally:
                self.address = address

        patch(supervisor.Supervisor, "_launch", launch_on_own_socket)
    elif name == "bwrap+shared":
        patch(session.Sandbox, "family_socket", lambda self, name: self.socket)
        patch(session.Sandbox, "family_socket_ready", lambda self, name: None)

        async def no_family_server(self: Arena, family: str, path: Path, processes: int, streams: int) -> None:
            return None

        patch(Arena, "listen_family", no_family_server)
    elif name == "bwrap-cgroups":
        patch(cgroups.Cgroups, "detect", classmethod(lambda cls, delegated=None: None))
    elif name == "bwrap-quota":
        box_as_usual = cgroups.Cgroups.box

        def box_without_quota(self: cgroups.Cgroups, name: str, limits: Limits, cores: tuple[int, ...] | None
                              ) -> cgroups.Box:
            box = box_as_usual(self, name, limits, cores)
            if "cpu" in box.dirs:
                (box.dirs["cpu"] / "cpu.cfs_quota_us").write_text("-1")
            elif "unified" in box.dirs:
                (box.dirs["unified"] / "cpu.max").write_text(f"max {cgroups.CFS_PERIOD_US}")
            return box

        patch(cgroups.Cgroups, "box", box_without_quota)
    elif name in ("bwrap-memory", "bwrap-cpuacct"):
        detect_as_usual = cgroups.Cgroups.detect
        dropped = ("cpu", "cpuacct", "cpuset") if name == "bwrap-memory" else ("cpuacct",)

        def fewer_groups(cls: type[cgroups.Cgroups], delegated: str | None = None) -> cgroups.Cgroups | None:
            found = detect_as_usual(delegated)
            if found is not None and found.version == 1:
                for c in dropped:
                    if c in found.run_dirs:
                        d = found.run_dirs.pop(c)
                        if found.layered:
                            with contextlib.suppress(OSError):  # a hierarchy mounted with another (cpu,cpuacct)
                                d.rmdir()
            return found

        patch(cgroups.Cgroups, "detect", classmethod(fewer_groups))
    elif name == "bwrap-layered":
        detect_flat = cgroups.Cgroups.detect

        def layered(cls: type[cgroups.Cgroups], delegated: str | None = None) -> cgroups.Cgroups | None:
            found = detect_flat(delegated)
            return found if found is None or found.layered else in_a_run_group(found)

        patch(cgroups.Cgroups, "detect", classmethod(layered))
    try:
        yield "none" if name.startswith("none") else "bwrap"
    finally:
        for owner, attr, value in reversed(saved):
            setattr(owner, attr, value)


def in_a_run_group(found: cgroups.Cgroups) -> cgroups.Cgroups:
    """The cgroup v1 layout before: the boxes one level deeper, in a group of
    the run (made here), instead of beside the arena's own processes."""
    run = {c: d / found.prefix.rstrip("-") for c, d in found.run_dirs.items()}
    for c, d in run.items():
        d.mkdir(exist_ok=True)  # cpu and cpuacct may share a hierarchy
        if c == "cpuset":
            for knob in ("cpuset.cpus", "cpuset.mems"):
                (d / knob).write_text((d.parent / knob).read_text())
    return cgroups.Cgroups(found.version, run, layered=True)


Mark = tuple[float, float, float]  # (when a game ended, CPU seconds so far of the arena's process, of the bots')


def _play(arm: str, games: int, concurrency: int) -> tuple[float, list[Mark]]:
    """One run of ``arm``: when its first game started, and a mark at each game's end."""
    marks: list[Mark] = []
    starts: list[float] = []

    def on_record(row: GameRecord) -> None:
        now = time.monotonic()
        starts.append(now - row.duration)
        marks.append((now, *_tree_cpu()))

    with tempfile.TemporaryDirectory() as tmp, _arm(arm, Path(tmp)) as sandbox:
        config = parse_config(_config(sandbox, games, concurrency))
        with ResultsStore.create_or_open(Path(tmp) / "bench.sqlite") as store:
            store.set_meta("config", stored_form(config))
            asyncio.run(run_tournament(config, store, log_dir=Path(tmp) / "logs", progress=False,
                                       on_record=on_record, scale=ScaleOut(workers=1)))
    return min(starts), marks


def _cpu_per_game(marks: list[Mark]) -> tuple[float, float]:
    """CPU seconds per game (arena, bots) between the first mark and the last."""
    (_, arena0, bots0), (_, arena1, bots1) = marks[0], marks[-1]
    return (arena1 - arena0) / (len(marks) - 1), (bots1 - bots0) / (len(marks) - 1)


def games_per_second(arm: str, games: int, concurrency: int) -> tuple[float, float, float]:
    """(games/s, CPU seconds per game of the arena's process, of the bots'
    processes). CPU counts from the first game's end to the last's: every
    process is started by then, so neither start-up nor shutdown is in it."""
    first_start, marks = _play(arm, games, concurrency)
    return (len(marks) / (marks[-1][0] - first_start), *_cpu_per_game(marks))


async def _start_once(sandboxed: bool, log_dir: Path) -> float:
    arena = Arena(None)
    sandbox = Sandbox.open(Containment.BEST_EFFORT) if sandboxed else None
    port = await arena.start("127.0.0.1:0", unix_socket=sandbox.socket if sandbox is not None else None)
    if sandbox is not None:
        sandbox.socket_ready()
    token = arena.add_token("bench")
    try:
        t0 = time.perf_counter()
        bot = await launch(LaunchSpec("bench", RANDOM), f"127.0.0.1:{port}", token, 1, log_dir, sandbox=sandbox)
        await arena.wait_for_bots(["bench"], timeout=30)
        elapsed = time.perf_counter() - t0
        await stop(bot)
    finally:
        await arena.stop(grace=0)
        if sandbox is not None:
            sandbox.close()
    return elapsed


def _setup_once(sandbox: Sandbox) -> tuple[float, float]:
    """The sandbox's own share of a start: (wall, CPU) seconds of its whole
    chain (control groups joined, limits, bwrap, namespaces, mounts, user)
    around a program that does nothing, without the bot's own start."""
    wrapped = sandbox.wrap("setup", ["/bin/true"], {"TRUCO_ARENA_TOKEN": "x"}, None, Limits())
    try:
        t0 = time.perf_counter()
        child = subprocess.Popen(wrapped.argv, pass_fds=wrapped.fds)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - t0
    finally:
        wrapped.close_fds()
        sandbox.release(wrapped.box)
    if child.returncode != 0:
        raise SystemExit(f"a sandboxed /bin/true failed (exit {child.returncode})")
    return elapsed, usage.ru_utime + usage.ru_stime


def _paired(arm: str, games: int, concurrency: int, first: bool) -> tuple[list[float], list[float]]:
    """``arm`` and "none" run at the same time in two processes (``first``:
    ``arm``'s starts first), each counted only while both play (games ended
    between the later first game's end and the earlier last game's end; the
    monotonic clock is the machine's): whatever else loads the machine loads
    both alike, so their ratio keeps what the arm changes. Each is
    [games/s, arena CPU, bots CPU] as ``games_per_second`` gives them."""
    argv = [sys.executable, os.path.abspath(__file__), "--games", str(games), "--single"]
    order = [arm, "none"] if first else ["none", arm]
    procs = {a: subprocess.Popen([*argv, f"{a}:{concurrency}"], stdout=subprocess.PIPE, text=True) for a in order}
    marks: dict[str, list[Mark]] = {}
    for a, proc in procs.items():
        text, _ = proc.communicate(timeout=1800)
        if proc.returncode != 0:
            raise SystemExit(f"the {a} arm's run failed (exit {proc.returncode})")
        marks[a] = [(t, x, y) for t, x, y in json.loads(text.strip().splitlines()[-1])]
    low = max(m[0][0] for m in marks.values())
    high = min(m[-1][0] for m in marks.values())
    out = {}
    for a, m in marks.items():
        inside = [x for x in m if low <= x[0] <= high]
        if len(inside) < 3:
            raise SystemExit("the paired runs hardly overlapped: more --games")
        out[a] = [(len(inside) - 1) / (inside[-1][0] - inside[0][0]), *_cpu_per_game(inside)]
    return out[arm], out["none"]


def measure(args: argparse.Namespace) -> dict[str, object]:
    """Every figure of this user's mode, no sandbox beside sandbox, the arms alternating."""
    levels = [int(x) for x in args.concurrency.split(",")]
    arms = args.arms.split(",")
    rates: dict[str, list[float]] = {}
    cpu: dict[str, list[tuple[float, float]]] = {}  # arm and level -> (arena, bots) CPU seconds per game, by run
    pairs: dict[str, list[tuple[float, float]]] = {}  # arm and level -> (games/s, CPU per game) over "none"'s
    for run in range(args.runs):
        for level in levels:
            for arm in (arms if run % 2 == 0 else arms[::-1]):
                if args.paired and arm == "none":
                    continue
                if args.paired:  # this arm and "none" at the same time, in two processes
                    ours, theirs = _paired(arm, args.games, level, first=run % 2 == 0)
                    rates.setdefault(f"none {level}", []).append(theirs[0])
                    cpu.setdefault(f"none {level}", []).append((theirs[1], theirs[2]))
                    pairs.setdefault(f"{arm} {level}", []).append(
                        (ours[0] / theirs[0], (ours[1] + ours[2]) / (theirs[1] + theirs[2])))
                    rate, arena_cpu, bots_cpu = ours
                else:
                    rate, arena_cpu, bots_cpu = games_per_second(arm, args.games, level)
                rates.setdefault(f"{arm} {level}", []).append(rate)
                cpu.setdefault(f"{arm} {level}", []).append((arena_cpu, bots_cpu))
        print(f"  run {run + 1}/{args.runs} done", file=sys.stderr, flush=True)
    starts: dict[str, list[float]] = {"none": [], "bwrap": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.starts):
            for sandboxed in ((False, True) if i % 2 == 0 else (True, False)):
                starts["bwrap" if sandboxed else "none"].append(asyncio.run(_start_once(sandboxed, Path(tmp) / "logs")))
    sandbox = Sandbox.open(Containment.BEST_EFFORT)
    sandbox.socket.touch()
    try:
        setup = [_setup_once(sandbox) for _ in range(args.starts)]
    finally:
        sandbox.close()
    return {"level": probe(Containment.BEST_EFFORT), "levels": levels, "arms": arms, "rates": rates, "cpu": cpu,
            "pairs": pairs, "starts": starts,
            "setup_wall": [w for w, _ in setup], "setup_cpu": [c for _, c in setup]}


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.0f}"


def report(modes: list[tuple[str, dict[str, object]]], args: argparse.Namespace, load: tuple[str, str]) -> None:
    print(f"\nsandbox cost, medians of {args.runs} runs ({args.games} games per pairing, 2 random bots, one worker)"
          f" and {args.starts} starts per arm, the arms alternating; load average {load[0]} at the start,"
          f" {load[1]} at the end, {os.cpu_count()} cores")
    print("| mode | games at once | games/s, no sandbox | games/s, sandbox | change |")
    print("|---|---|---|---|---|")
    for name, m in modes:
        rates = m["rates"]
        assert isinstance(rates, dict) and isinstance(m["levels"], list)
        for level in m["levels"]:
            plain, boxed = statistics.median(rates[f"none {level}"]), statistics.median(rates[f"bwrap {level}"])
            print(f"| {name} | {level} | {plain:.1f} | {boxed:.1f} | {100 * (boxed / plain - 1):+.1f}% |")
    print("\nEach arm, medians: games/s and its change from \"none\"; CPU ms per game of the arena's process and"
          " of the bots' processes (bwrap and its helpers included), from the first game's end to the last's")
    print("| mode | games at once | arm | games/s | change | arena CPU ms/game | bots CPU ms/game | total | change |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, m in modes:
        rates, cpu, arms = m["rates"], m["cpu"], m["arms"]
        assert isinstance(rates, dict) and isinstance(cpu, dict) and isinstance(arms, list)
        assert isinstance(m["levels"], list)
        for level in m["levels"]:
            base_rate = statistics.median(rates[f"none {level}"])
            base_cpu = statistics.median(a + b for a, b in cpu[f"none {level}"])
            for arm in arms:
                rate = statistics.median(rates[f"{arm} {level}"])
                arena_ms = 1000 * statistics.median(a for a, _ in cpu[f"{arm} {level}"])
                bots_ms = 1000 * statistics.median(b for _, b in cpu[f"{arm} {level}"])
                total = statistics.median(a + b for a, b in cpu[f"{arm} {level}"])
                print(f"| {name} | {level} | {arm} | {rate:.2f} | {100 * (rate / base_rate - 1):+.1f}% | "
                      f"{arena_ms:.1f} | {bots_ms:.1f} | {1000 * total:.1f} | {100 * (total / base_cpu - 1):+.1f}% |")
    for arm, what in ARMS.items():
        print(f"  {arm}: {what}")
    if any(m.get("pairs") for _, m in modes):
        print("\nEach arm against a \"none\" run at the same time (--paired): median (lowest..highest) of the ratios")
        print("| mode | games at once | arm | games/s | CPU per game, arena + bots |")
        print("|---|---|---|---|---|")
        for name, m in modes:
            pairs = m.get("pairs")
            assert isinstance(pairs, dict)
            for key, ratios in pairs.items():
                arm, level = key.split()
                rate, used = ([100 * (r[i] - 1) for r in ratios] for i in (0, 1))
                print(f"| {name} | {level} | {arm} | {statistics.median(rate):+.1f}% ({min(rate):+.0f}..{max(rate):+.0f}) "
                      f"| {statistics.median(used):+.1f}% ({min(used):+.0f}..{max(used):+.0f}) |")
    print("\n| mode | start-up ms, no sandbox | start-up ms, sandbox | more | the sandbox's own chain: wall ms | CPU ms |")
    print("|---|---|---|---|---|---|")
    for name, m in modes:
        starts = m["starts"]
        assert isinstance(starts, dict)
        if not starts["bwrap"] or not m["setup_wall"]:  # --starts 0
            continue
        extra = statistics.median(starts["bwrap"]) - statistics.median(starts["none"])
        print(f"| {name} | {_ms(starts['none'])} | {_ms(starts['bwrap'])} | {1000 * extra:+.0f} | "
              f"{_ms(m['setup_wall'])} | {_ms(m['setup_cpu'])} |")  # type: ignore[arg-type]
    print("\nGoals (docs/sandbox.md): under 5% fewer games/s; under 100 ms more start-up per bot process.")
    for name, m in modes:
        print(f"{name}: {m['level']}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--concurrency", default="1,4")
    p.add_argument("--starts", type=int, default=10)
    p.add_argument("--arms", default=",".join(ARMS),
                   help=f"games/s arms, comma-separated, of {', '.join(ARMS)} (none and bwrap always)")
    p.add_argument("--user-python", help="as root: also run as an ordinary uid with this interpreter")
    p.add_argument("--uid", type=int, default=4242)
    p.add_argument("--paired", action="store_true",
                   help="run each arm at the same time as a \"none\" run, in two processes, and compare the two")
    p.add_argument("--json", action="store_true", help="print this mode's figures as one JSON line (sub-runs)")
    p.add_argument("--single", metavar="ARM:GAMES_AT_ONCE", help=argparse.SUPPRESS)  # one run of --paired
    args = p.parse_args()
    if args.single:
        arm, level = args.single.split(":")
        print(json.dumps(_play(arm, args.games, int(level))[1]))
        return
    unknown = set(args.arms.split(",")) - set(ARMS)
    if unknown:
        p.error(f"--arms: unknown arm(s) {', '.join(sorted(unknown))}; arms: {', '.join(ARMS)}")
    args.arms = ",".join(["none", *(a for a in args.arms.split(",") if a not in ("none", "bwrap")), "bwrap"])
    if args.json:
        print(json.dumps(measure(args)))
        return
    load_start = Path("/proc/loadavg").read_text().split()[0]
    name = "root" if os.geteuid() == 0 else ("ordinary user, delegated cgroup" if os.environ.get("TRUCO_ARENA_CGROUP")
                                            else "ordinary user, nothing delegated")
    print(f"{name}: measuring", file=sys.stderr, flush=True)
    modes = [(name, measure(args))]
    if args.user_python and os.geteuid() == 0:
        own = [a for a in sys.argv[1:] if a not in ("--user-python", args.user_python)]
        for delegated in (True, False):
            label = f"uid {args.uid}, {'delegated cgroup' if delegated else 'nothing delegated'}"
            print(f"{label}: measuring", file=sys.stderr, flush=True)
            with _delegated(args.uid) if delegated else contextlib.nullcontext() as path:
                env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
                if path:
                    env["TRUCO_ARENA_CGROUP"] = path
                sub = subprocess.run(["setpriv", f"--reuid={args.uid}", f"--regid={args.uid}", "--clear-groups", "--",
                                      args.user_python, os.path.abspath(__file__), *own, "--json"],
                                     env=env, cwd="/tmp", check=False, stdout=subprocess.PIPE, text=True)
            lines = sub.stdout.strip().splitlines()
            if sub.returncode != 0 or not lines:
                raise SystemExit(f"{label}: the sub-run failed (exit {sub.returncode})")
            modes.append((label, json.loads(lines[-1])))
    report(modes, args, (load_start, Path("/proc/loadavg").read_text().split()[0]))


@contextlib.contextmanager
def _delegated(uid: int) -> Iterator[str]:
    name = f"truco-bench-{os.getpid()}"
    made = []
    try:
        for c in ("memory", "pids", "cpu", "cpuacct"):
            folder = Path("/sys/fs/cgroup") / c / name
            folder.mkdir()
            made.append(folder)
            for path in [folder, *folder.iterdir()]:
                os.chown(path, uid, uid)
        yield name
    finally:
        for folder in made:
            for child in folder.iterdir():
                if child.is_dir():
                    with contextlib.suppress(OSError):
                        child.rmdir()
            with contextlib.suppress(OSError):
                folder.rmdir()


if __name__ == "__main__":
    main()
