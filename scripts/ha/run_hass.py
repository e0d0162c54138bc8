#!/usr/bin/env python3
"""Runs `hass` for the end-to-end tests so that it never outlives them.

    <venv>/bin/python scripts/ha/run_hass.py <venv>/bin/hass -c CONFIG_DIR --skip-pip

It puts itself in a new process group (the tests can end it and hass at once with
kill(-pgid)), starts hass as its child, passes SIGTERM/SIGINT on to it, and stops
hass by itself when its own parent (the test process) goes away, e.g. after a
crash: SIGTERM, then SIGKILL 20 s later. Exits with hass's exit status.
It also clears the signal mask it inherited (see main), without which SIGTERM
would never reach hass.

Before hass starts it writes CONFIG_DIR/.storage/http (Home Assistant 2026.x keeps
its http settings there, see pin_http_storage); older releases read `http:` from
configuration.yaml and have no such store.

Home Assistant 2026.x's HTTP client resolves names through an mDNS resolver that opens
UDP 5353 on every interface (multicast, beyond 127.0.0.1) as soon as any integration
makes a client session. For the tests that is swapped for aiohttp's plain resolver
(see without_mdns): hass then runs in this script's child process (same `hass` entry
point, `homeassistant.__main__.main`) instead of being exec'ed; there Home Assistant's
deprecation reports for custom integrations are made errors (fatal_deprecations.py).
"""
from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from datetime import datetime, timezone

KILL_AFTER_SECONDS = 20.0


def pin_http_storage(arguments: list[str]) -> None:
    """Writes the http store of HA 2026.x so that it listens where configuration.yaml
    says (`http: server_port`) and on 127.0.0.1 only, as its *stable* config.

    Left to itself, 2026.x stages the YAML `http:` block as a *pending* trial on the
    first start; unless promoted within 5 minutes HA restarts to revert it, which
    without a supervisor means `hass` exits, and a later start listens on all
    interfaces on the built-in default. Written before every start (mode 0600), so a
    test's restarts never depend on what HA left there. Built from HA's own schema,
    so every key has the value HA itself would store.
    """
    try:
        from homeassistant.components.http import config as http_config
    except ImportError:
        return  # before 2026.x: http: comes from configuration.yaml only
    if not hasattr(http_config, "HTTP_STORAGE_SCHEMA"):
        return
    config_dir = arguments[arguments.index("-c") + 1]
    with open(os.path.join(config_dir, "configuration.yaml"), encoding="utf-8") as file:
        found = re.search(r"^http:\n(?:[ \t]+.*\n)*?[ \t]+server_port:[ \t]*(\d+)", file.read(), re.MULTILINE)
    if found is None:
        raise SystemExit(f"run_hass: no 'http: server_port:' in {config_dir}/configuration.yaml")
    stable = dict(http_config.HTTP_STORAGE_SCHEMA({"server_host": ["127.0.0.1"], "server_port": int(found[1])}))
    stable.update({
        http_config.HTTP_CONFIG_CREATED_AT: datetime.now(timezone.utc).isoformat(),
        http_config.HTTP_CONFIG_ERROR: None,
        http_config.HTTP_CONFIG_ERROR_MESSAGE: None,
    })
    document = {
        "version": http_config.STORAGE_VERSION,
        "minor_version": http_config.STORAGE_MINOR_VERSION,
        "key": http_config.STORAGE_KEY,
        "data": {
            http_config.KEY_STABLE: stable,
            http_config.KEY_PENDING: None,
            http_config.KEY_YAML_MIGRATION_DONE: True,
        },
    }
    storage = os.path.join(config_dir, ".storage")
    os.makedirs(storage, mode=0o700, exist_ok=True)
    path = os.path.join(storage, "http")
    descriptor = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump(document, file, indent=2, default=lambda value: getattr(value, "value", str(value)))
    os.replace(path + ".tmp", path)


def without_mdns() -> bool:
    """Replaces HA's mDNS-capable DNS resolver with aiohttp's threaded one (the tests
    resolve no .local names, and nothing may listen beyond 127.0.0.1). False when this
    HA has no such resolver (before 2025), so hass can simply be exec'ed."""
    try:
        from homeassistant.helpers import aiohttp_client
    except ImportError:
        return False
    if not hasattr(aiohttp_client, "_async_make_resolver"):
        return False
    import aiohttp

    class PlainResolver(aiohttp.ThreadedResolver):
        """Shared by every session: closed only when HA closes (as HA's own is)."""

        async def close(self) -> None:
            return None

        async def real_close(self) -> None:
            await aiohttp.ThreadedResolver.close(self)

    aiohttp_client._async_make_resolver = lambda hass: PlainResolver()
    return True


def run_hass(arguments: list[str]) -> None:
    """In the child: runs hass, in-process when its resolver had to be swapped."""
    if without_mdns():
        from homeassistant.__main__ import main as hass_main

        # Deprecated uses by custom integrations (cycletrack's, the stand-ins) fail here as
        # they will in the release that breaks them (fatal_deprecations.py).
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import fatal_deprecations

        fatal_deprecations.install()

        sys.argv = [arguments[0], *arguments[1:]]
        try:
            code = hass_main()
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    os.execv(arguments[0], arguments)


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
    if "-c" in sys.argv:
        pin_http_storage(sys.argv)
    parent = os.getppid()
    child = os.fork()
    if child == 0:
        try:
            run_hass(sys.argv[1:])
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
