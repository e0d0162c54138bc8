#!/usr/bin/env python3
"""Runs `hass` for the end-to-end tests so that it never outlives them.

    <venv>/bin/python scripts/ha/run_hass.py <venv>/bin/hass -c CONFIG_DIR --skip-pip

It puts itself in a new process group (the tests can end it and hass at once with
kill(-pgid)), starts hass as its child, passes SIGTERM/SIGINT on to it, and stops
hass by itself when its own parent (the test process) goes away, e.g. after a
crash: SIGTERM, then SIGKILL 20 s later. Exits with hass's exit status.
It also clears the signal mask it inherited (see main), without which SIGTERM
would never reach hass.
"""
from __future__ import annotations

import os
import signal
import sys
import time

KILL_AFTER_SECONDS = 20.0


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: run_hass.py HASS [ARGUMENTS...]", file=sys.stderr)
        return 2
    # A process started by Foundation's Process inherits the signal mask of the
    # Swift thread that started it, which blocks nearly everything, SIGTERM too:
    # start from a clean mask so SIGTERM reaches this script and hass.
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    try:
        os.setpgid(0, 0)
    except PermissionError:
        pass
    parent = os.getppid()
    child = os.fork()
    if child == 0:
        try:
            os.execv(sys.argv[1], sys.argv[1:])
        finally:
            os._exit(127)

    stop_requested_at: list[float] = []

    def stop(*_: object) -> None:
        if not stop_requested_at:
            stop_requested_at.append(time.monotonic())
        try:
            os.kill(child, signal.SIGTERM)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while True:
        pid, status = os.waitpid(child, os.WNOHANG)
        if pid == child:
            code = os.waitstatus_to_exitcode(status)
            return code if code >= 0 else 128 - code
        if os.getppid() != parent and not stop_requested_at:
            print("run_hass: the test process is gone; stopping hass", file=sys.stderr, flush=True)
            stop()
        if stop_requested_at and time.monotonic() - stop_requested_at[0] > KILL_AFTER_SECONDS:
            os.kill(child, signal.SIGKILL)
        time.sleep(0.1)


if __name__ == "__main__":
    sys.exit(main())
