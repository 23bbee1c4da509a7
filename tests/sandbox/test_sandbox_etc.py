"""The few files of /etc a launched program needs resolve for the bot's own
user: /etc is made traversable (bwrap makes it 0700 as root otherwise), so
/usr/bin/java's alternatives link and Node.js's openssl.cnf are reachable,
and nothing else of /etc is there."""

from __future__ import annotations

import socket
import subprocess

from sandbox_runs import needs_bwrap

from arena.sandbox import Containment, Limits, Sandbox

_PROBE = ("test -r /etc/ssl/openssl.cnf && test -r /etc/ld.so.cache && ls /etc/alternatives >/dev/null "
          "&& ls /etc && echo reachable")


@needs_bwrap
def test_the_system_files_of_etc_resolve_for_the_bots_user() -> None:
    sandbox = Sandbox.open(Containment.BEST_EFFORT)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # every sandbox binds the arena's socket
    try:
        listener.bind(str(sandbox.socket))
        wrapped = sandbox.wrap("etc", ["/bin/sh", "-c", _PROBE], {}, None, Limits())
        try:
            run = subprocess.run(wrapped.argv, pass_fds=wrapped.fds, capture_output=True, text=True, timeout=60,
                                 stdin=subprocess.DEVNULL)
        finally:
            wrapped.close_fds()
            sandbox.release(wrapped.box)
    finally:
        listener.close()
        sandbox.close()
    assert run.returncode == 0 and run.stdout.strip().endswith("reachable"), (run.stdout, run.stderr)
    listed = set(run.stdout.split()[:-1])
    assert listed <= {"ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives", "nsswitch.conf",
                      "ssl"}, listed  # no passwd, no shadow, nothing else of the host's /etc
