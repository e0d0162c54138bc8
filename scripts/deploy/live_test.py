#!/usr/bin/env python3
"""The live part of scripts/test-deploy.sh: the container image and the add-on image,
each run with Podman against a real Home Assistant, through a whole dishwasher cycle.

    <HA venv>/bin/python scripts/deploy/live_test.py --venv V [--ha-root scripts/ha/forky-root.sh] \
        --work DIR --results FILE \
        --container-image IMG --addon-image IMG --podman "podman --runtime runc ..." --ulimits "..."

Home Assistant is the end-to-end tests' 2026.11.0 in the forky root (--ha-root: hass is
started with `forky-root.sh run --`), else the 2024.3.3 of scripts/ha/setup.sh's venv;
this script itself runs with the venv's Python (aiohttp, PyYAML). HA runs on a copy of
Tests/EndToEndTests/Fixtures/ha-config, on a free 127.0.0.1 port, onboarded with a
token made now (written 0600, never printed), and is used once /api/config says RUNNING. Its stand-in `home_connect` plays the
dishwasher; its stand-in `supernotify` records every supernotify.notify call.

1. The container image, as compose.yaml runs it: --network=host, a read-only root,
   no capabilities, the config mounted read-only, the token as a secret file, /data
   a named volume. A cycle goes through
   (start, clear, end recorded by the stand-in supernotify); `cycletrack query` inside
   the container shows it; the database is in the volume and is still there, with the
   cycle, after the container is stopped (exit 0 on SIGTERM) and started again.
2. The add-on image, as the Supervisor runs it: /data/options.json made from
   config.yaml's defaults plus a test appliance (checked against the schema with the
   Supervisor's rules), SUPERVISOR_TOKEN set, `supervisor` mapped to 127.0.0.1 where
   supervisor_proxy.py forwards /core/api/ to HA with the real token. The same cycle
   goes through; the database is in /data.

Prints `deploy: ok ...` / `deploy: FAIL ...` per check and writes "PASSED FAILED" to
--results. Needs PyYAML (in HA's venv).
"""
from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import random
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts", "ha"))
import onboard  # noqa: E402

FIXTURE = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures", "ha-config")
ADDON_CONFIG = os.path.join(ROOT, "cycletrack", "config.yaml")
PROGRAM = "dishcare_dishwasher_program_eco_50"
CONTAINER_UID = 10001  # the images' user `cycletrack`

# What HA shows, line by line: a dishwasher cycle from ready to finished and back.
CYCLE = [{"operation_state": "ready", "program": "unknown", "progress": "unavailable", "finish_time": "unavailable"}]
for percent in (0, 10, 20, 40, 60, 80, 90):
    CYCLE.append({"operation_state": "run", "progress": str(percent), "finish_time": "2026-11-02T11:37:00+00:00",
                  "program": PROGRAM})
CYCLE.append({"operation_state": "finished", "progress": "96", "finish_time": "2026-11-02T11:37:00+00:00",
              "program": PROGRAM})
CYCLE.append({"operation_state": "ready", "progress": "unavailable", "finish_time": "unavailable", "program": "unknown"})


class Failure(Exception):
    """A check failed; the message says what was expected and what was found."""


class Results:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def ok(self, what: str) -> None:
        self.passed += 1
        print(f"deploy: ok   {what}", flush=True)

    def fail(self, what: str, why: str) -> None:
        self.failed += 1
        print(f"deploy: FAIL {what}: {why}", flush=True)

    def check(self, what: str, condition: bool, why: str = "") -> bool:
        if condition:
            self.ok(what)
        else:
            self.fail(what, why or "no")
        return condition


PORT_CLAIMS = "/tmp/cycletrack-ports"
_claims: list[int] = []  # the claims' descriptors, held until this process ends


def free_port() -> int:
    """A 127.0.0.1 port claimed as the end-to-end suites claim theirs (PortClaim.swift):
    below the kernel's ephemeral range, so no bind to port 0 takes it before hass binds
    it, and held with flock against the suites running beside this test."""
    with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="utf-8") as file:
        ephemeral = int(file.read().split()[0])
    os.makedirs(PORT_CLAIMS, mode=0o1777, exist_ok=True)
    for _ in range(500):
        candidate = random.randrange(20_000, max(21_000, ephemeral))
        lock = os.open(f"{PORT_CLAIMS}/{candidate}.lock", os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.bind(("127.0.0.1", candidate))
        except OSError:
            os.close(lock)
            continue
        _claims.append(lock)
        return candidate
    raise RuntimeError("no free, unclaimed port on 127.0.0.1 after 500 tries")


def wait_for(what: str, condition, timeout: float, interval: float = 0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


# ---- Home Assistant ------------------------------------------------------------------


class HomeAssistant:
    def __init__(self, venv: str, work: str, root_tool: str | None = None) -> None:
        self.venv = venv
        self.root_tool = root_tool
        self.version = "?"
        self.directory = os.path.join(work, "ha")
        self.config = os.path.join(self.directory, "config")
        os.makedirs(self.directory, mode=0o700)
        shutil.copytree(FIXTURE, self.config)
        self.port = free_port()
        path = os.path.join(self.config, "configuration.yaml")
        with open(path, encoding="utf-8") as file:
            text = file.read().replace("__PORT__", str(self.port))
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        self.url = f"http://127.0.0.1:{self.port}"
        self.token_file = os.path.join(self.directory, "token")
        self.log = os.path.join(self.directory, "hass.log")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        run_hass = os.path.join(ROOT, "scripts", "ha", "run_hass.py")
        if self.root_tool:
            command = [self.root_tool, "run", "--", "python", run_hass, "/opt/homeassistant/bin/hass"]
        else:
            command = [os.path.join(self.venv, "bin", "python"), run_hass, os.path.join(self.venv, "bin", "hass")]
        with open(self.log, "w", encoding="utf-8") as log:
            self.process = subprocess.Popen(command + ["-c", self.config, "--skip-pip"],
                                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        print("deploy:", "home assistant:", asyncio.run(onboard.run(self.url, self.token_file, 240)), flush=True)

        def running() -> bool:
            status, body = self.request("GET", "/api/config")
            config = json.loads(body) if status == 200 else {}
            self.version = str(config.get("version", "?"))
            return config.get("state") == "RUNNING"

        wait_for("/api/config to say RUNNING", running, 240)
        print(f"deploy: home assistant: Home Assistant {self.version} at {self.url}", flush=True)

        def loaded() -> bool:
            status, body = self.request("GET", "/api/config/config_entries/entry?domain=home_connect")
            entries = json.loads(body) if status == 200 else []
            return bool(entries) and all(entry.get("state") == "loaded" for entry in entries)

        wait_for("the home_connect stand-in to be loaded", loaded, 60)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def token(self) -> str:
        with open(self.token_file, encoding="utf-8") as file:
            return file.read().strip()

    def request(self, method: str, path: str, body: object | None = None) -> tuple[int, str]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token()}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def set_appliance(self, values: dict) -> None:
        status, body = self.request("POST", "/api/services/home_connect/set_state", values)
        if status != 200:
            raise Failure(f"home_connect.set_state: HTTP {status}: {body[:300]}")

    def calls(self) -> list[dict]:
        path = os.path.join(self.config, "supernotify_calls.jsonl")
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as file:
            return [json.loads(line) for line in file if line.strip()]

    def log_tail(self, lines: int = 30) -> str:
        with open(self.log, encoding="utf-8", errors="replace") as file:
            return "".join(file.readlines()[-lines:])


def kind(call: dict) -> str:
    extra = call["data"].get("extra_data") or {}
    if extra.get("mobile_push_clear_notification") is True:
        return "clear"
    if str(extra.get("mobile_push_notification_tag", "")).endswith("_end"):
        return "end"
    if extra.get("silent") is True:
        return "quiet"
    return "start"


# ---- Podman --------------------------------------------------------------------------


class Podman:
    def __init__(self, command: str, ulimits: str) -> None:
        self.command = shlex.split(command)
        self.ulimits = shlex.split(ulimits)

    def run(self, *arguments: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
        result = subprocess.run(self.command + list(arguments), capture_output=True, text=True, env=env, timeout=300)
        if check and result.returncode != 0:
            raise Failure(f"podman {arguments[0]} exited {result.returncode}: {result.stderr.strip()[-500:]}")
        return result

    def logs(self, name: str) -> str:
        result = self.run("logs", name, check=False)
        return result.stdout + result.stderr


class Service:
    """One container running `cycletrack run`, and what it logs."""

    def __init__(self, podman: Podman, name: str) -> None:
        self.podman = podman
        self.name = name

    def logs(self) -> str:
        return self.podman.logs(self.name)

    def wait_log(self, text: str, count: int = 1, timeout: float = 60) -> None:
        try:
            wait_for(f"'{text}' in {self.name}'s log", lambda: self.logs().count(text) >= count, timeout, 0.3)
        except Failure as failure:
            raise Failure(f"{failure}\n--- {self.name}'s log ---\n{self.logs()[-3000:]}") from None

    def play_cycle(self, ha: HomeAssistant) -> None:
        """Shows the cycle in HA line by line, each line until the service has polled it twice."""
        for line in CYCLE:
            before = self.logs().count("event=polled")
            ha.set_appliance(line)
            self.wait_log("event=polled", before + 2, timeout=30)

    def query(self, database: str) -> list[dict]:
        result = self.podman.run("exec", self.name, "/usr/local/bin/cycletrack", "query", "--db", database,
                                 "--format", "json")
        return json.loads(result.stdout)

    def exit_code(self) -> int:
        return int(self.podman.run("inspect", "--format", "{{.State.ExitCode}}", self.name).stdout.strip())

    def remove(self) -> None:
        self.podman.run("rm", "-f", "-t", "5", self.name, check=False)


def check_cycle(results: Results, label: str, ha: HomeAssistant, first_call: int, service: Service,
                database: str) -> None:
    """The calls since first_call are one cycle's: start first, then clear, then end."""
    wait_for("the end notification", lambda: [kind(c) for c in ha.calls()[first_call:]].count("end") >= 1, 60)
    calls = ha.calls()[first_call:]
    kinds = [kind(call) for call in calls]
    tags = {str((call["data"].get("extra_data") or {}).get("mobile_push_notification_tag", "")) for call in calls}
    results.check(f"{label}: a whole cycle reached supernotify.notify (start, {kinds.count('quiet')} quiet updates, "
                  f"clear, end; {len(calls)} calls)",
                  bool(kinds) and kinds[0] == "start" and kinds.count("start") == 1 and kinds[-2:] == ["clear", "end"]
                  and kinds.count("clear") == 1 and kinds.count("end") == 1 and kinds.count("quiet") >= 3,
                  f"calls were {kinds}")
    results.check(f"{label}: every call carries the appliance's tag", tags <= {"appliance_dishwasher",
                                                                             "appliance_dishwasher_end"},
                  f"tags {sorted(tags)}")
    failures = [call for call in calls if call.get("failure")]
    results.check(f"{label}: HA accepted every call", not failures, f"{len(failures)} failed")
    cycles = service.query(database)
    finished = [c for c in cycles if c.get("appliance") == "dishwasher" and c.get("outcome") == "finished"]
    results.check(f"{label}: `cycletrack query` inside the container shows the finished cycle "
                  f"({finished[0].get('program') if finished else '-'}, {finished[0].get('pushes') if finished else '-'} pushes)",
                  len(cycles) == 1 and len(finished) == 1 and finished[0].get("pushes") == len(calls),
                  f"query said {json.dumps(cycles)[:500]}")


def token_not_in(results: Results, label: str, token: str, texts: dict[str, str]) -> None:
    leaked = [name for name, text in texts.items() if token in text]
    results.check(f"{label}: the HA token is in no log ({', '.join(texts)})", not leaked, f"found in {leaked}")


# ---- 1. The container image ------------------------------------------------------------


def container_test(results: Results, podman: Podman, ha: HomeAssistant, image: str, work: str) -> None:
    label = "container"
    directory = os.path.join(work, "container")
    os.makedirs(os.path.join(directory, "config"))
    suffix = secrets.token_hex(4)
    name, volume = f"cycletrack-deploytest-{suffix}", f"cycletrack-deploytest-{suffix}"
    # The token as a secret file readable by the container's user, as Docker secrets are.
    secret = os.path.join(directory, "ha_token")
    shutil.copyfile(ha.token_file, secret)
    os.chown(secret, CONTAINER_UID, CONTAINER_UID)
    os.chmod(secret, 0o400)
    with open(os.path.join(directory, "config", "cycletrack.json"), "w", encoding="utf-8") as file:
        # Polling, so the test can pace the cycle by the service's polls; following HA's
        # WebSocket events is tested end to end against the same HA by the Swift suite.
        json.dump({"home_assistant": {"url": ha.url, "token_file": "/run/secrets/ha_token"},
                   "updates": "poll", "poll": {"active_seconds": 1, "idle_seconds": 1},
                   "appliances": [{"id": "dishwasher", "settle_seconds": 0, "min_update_seconds": 0,
                                   "entities": {"operation_state": "sensor.dishwasher_operation_state"}}]}, file)
    service = Service(podman, name)
    podman.run("volume", "create", volume)
    try:
        first = len(ha.calls())
        # As compose.yaml runs it: read-only root, no capabilities, no new privileges.
        podman.run("run", "-d", "--name", name, "--network=host", *podman.ulimits, "-e", "CYCLETRACK_LOG=debug",
                   "--read-only", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                   "-v", f"{directory}/config:/config:ro", "-v", f"{secret}:/run/secrets/ha_token:ro",
                   "-v", f"{volume}:/data", image)
        service.wait_log("event=tracking appliance=dishwasher")
        results.ok(f"{label}: runs as `run --db /data/cycletrack.sqlite`, finds the dishwasher in HA at {ha.url}")
        service.play_cycle(ha)
        check_cycle(results, label, ha, first, service, "/data/cycletrack.sqlite")

        mountpoint = podman.run("volume", "inspect", "--format", "{{.Mountpoint}}", volume).stdout.strip()
        results.check(f"{label}: the database is in the volume {volume}",
                      os.path.exists(os.path.join(mountpoint, "cycletrack.sqlite")), f"not in {mountpoint}")

        podman.run("stop", "-t", "30", name)
        results.check(f"{label}: SIGTERM stops it cleanly (exit 0)", service.exit_code() == 0,
                      f"exit {service.exit_code()}")
        calls_before = len(ha.calls())
        podman.run("start", name)
        service.wait_log("event=tracking appliance=dishwasher", count=2)
        service.wait_log("event=polled", count=service.logs().split("event=starting")[-1].count("event=polled") + 3)
        cycles = service.query("/data/cycletrack.sqlite")
        results.check(f"{label}: after a restart the volume still holds the cycle, and nothing is sent again",
                      len(cycles) == 1 and cycles[0].get("outcome") == "finished" and len(ha.calls()) == calls_before,
                      f"query said {json.dumps(cycles)[:300]}; {len(ha.calls()) - calls_before} new calls")
        token_not_in(results, label, ha.token(), {"container log": service.logs(), "HA log": open(ha.log).read()})
    except Failure as failure:
        results.fail(label, str(failure))
    finally:
        service.remove()
        podman.run("volume", "rm", "-f", volume, check=False)


# ---- 2. The add-on image ---------------------------------------------------------------


def supervisor_check(schema, value, where: str) -> list[str]:
    """The Supervisor's option rules, as its add-on options validator applies them: every
    schema key a mapping leaves out must be optional (a type ending in `?`, or a list of
    such); a nested mapping left out is always an error. Returns the problems found."""
    problems: list[str] = []
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            return [f"{where}: expected a mapping"]
        for key, child in value.items():
            if key not in schema:
                problems.append(f"{where}.{key}: not in the schema (the Supervisor would drop it)")
            else:
                problems += supervisor_check(schema[key], child, f"{where}.{key}")
        for key in set(schema) - set(value):
            missing = schema[key][0] if isinstance(schema[key], list) and schema[key] else schema[key]
            if not (isinstance(missing, str) and missing.endswith("?")):
                problems.append(f"{where}: missing option '{key}'")
    elif isinstance(schema, list):
        if not isinstance(value, list):
            return [f"{where}: expected a list"]
        for index, item in enumerate(value):
            problems += supervisor_check(schema[0], item, f"{where}[{index}]")
    elif value is None:
        problems.append(f"{where}: missing required option")
    return problems


def addon_test(results: Results, podman: Podman, ha: HomeAssistant, image: str, work: str) -> None:
    label = "add-on"
    directory = os.path.join(work, "addon")
    data = os.path.join(directory, "data")
    os.makedirs(data)
    with open(ADDON_CONFIG, encoding="utf-8") as file:
        addon = yaml.safe_load(file)
    # What the Supervisor writes: the defaults, plus what a user fills in. The test's
    # appliance gives only an id and one entity (discovery supplies the rest); the test
    # polls every second and sends updates without waiting, to keep the cycle short (the
    # stand-in Supervisor proxy forwards REST only, not the WebSocket).
    options = json.loads(json.dumps(addon["options"]))
    options["updates"] = "poll"
    options["poll"] = {"active_seconds": 1, "idle_seconds": 1}
    options["appliances"] = [{"id": "dishwasher", "operation_state_entity": "sensor.dishwasher_operation_state",
                              "settle_seconds": 0, "min_update_seconds": 0}]
    problems = supervisor_check(addon["schema"], options, "options")
    results.check(f"{label}: options.json (defaults + an appliance with only an id and one entity) passes the "
                  "Supervisor's option rules", not problems, "; ".join(problems))
    with open(os.path.join(data, "options.json"), "w", encoding="utf-8") as file:
        json.dump(options, file)

    addon_token = secrets.token_hex(32)  # the Supervisor's token for the add-on: not HA's
    environment = dict(os.environ, SUPERVISOR_TOKEN=addon_token)
    proxy_log = os.path.join(directory, "proxy.log")
    proxy_out = open(os.path.join(directory, "proxy.out"), "w", encoding="utf-8")
    proxy = subprocess.Popen([sys.executable, os.path.join(HERE, "supervisor_proxy.py"), "--ha-url", ha.url,
                              "--ha-token-file", ha.token_file, "--log", proxy_log, "--port", "80"],
                             stdout=proxy_out, stderr=subprocess.STDOUT, env=environment)
    name = f"cycletrack-deploytest-addon-{secrets.token_hex(4)}"
    service = Service(podman, name)
    try:
        def listening():
            if proxy.poll() is not None:
                raise Failure(f"the stand-in Supervisor proxy exited: {open(proxy_out.name).read().strip()}")
            return "listening" in open(proxy_out.name).read()
        wait_for("the stand-in Supervisor proxy on 127.0.0.1:80", listening, 10)
        first = len(ha.calls())
        podman.run("run", "-d", "--name", name, "--network=host", "--add-host", "supervisor:127.0.0.1",
                   *podman.ulimits, "-e", "SUPERVISOR_TOKEN", "-e", "CYCLETRACK_LOG=debug", "-v", f"{data}:/data",
                   image, env=environment)
        service.wait_log("event=tracking appliance=dishwasher")
        logs = service.logs()
        results.check(f"{label}: run.sh starts cycletrack as user cycletrack with /data/options.json, "
                      "HA at http://supervisor/core with $SUPERVISOR_TOKEN",
                      "starting as user cycletrack" in logs and "http://supervisor/core" in logs
                      and "$SUPERVISOR_TOKEN" in logs, logs[-1500:])
        service.play_cycle(ha)
        check_cycle(results, label, ha, first, service, "/data/cycletrack.sqlite")
        results.check(f"{label}: the database is in /data (on the host: {data}/cycletrack.sqlite)",
                      os.path.exists(os.path.join(data, "cycletrack.sqlite")), str(os.listdir(data)))
        with open(proxy_log, encoding="utf-8") as file:
            requests = file.read().splitlines()
        results.check(f"{label}: everything went through the Supervisor proxy ({len(requests)} requests, none refused)",
                      len(requests) > 10 and not [r for r in requests if r.endswith(" 401")],
                      "\n".join(requests[-5:]))
        podman.run("stop", "-t", "30", name)
        results.check(f"{label}: SIGTERM stops it cleanly (exit 0)", service.exit_code() == 0,
                      f"exit {service.exit_code()}")
        token_not_in(results, label, ha.token(), {"add-on log": service.logs(), "proxy log": "\n".join(requests),
                                                  "options.json": open(os.path.join(data, "options.json")).read()})
    except Failure as failure:
        results.fail(label, str(failure))
    finally:
        service.remove()
        proxy.terminate()
        proxy.wait(timeout=10)
        proxy_out.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", required=True)
    parser.add_argument("--ha-root", help="scripts/ha/forky-root.sh: run HA 2026.11 in its root instead of the venv's HA")
    parser.add_argument("--work", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--container-image", required=True)
    parser.add_argument("--addon-image", required=True)
    parser.add_argument("--podman", required=True)
    parser.add_argument("--ulimits", default="")
    arguments = parser.parse_args()
    results = Results()
    podman = Podman(arguments.podman, arguments.ulimits)
    ha = HomeAssistant(arguments.venv, arguments.work, arguments.ha_root)
    started = time.monotonic()
    try:
        ha.start()
        results.ok(f"a real Home Assistant {ha.version} answers at {ha.url}, onboarded, stand-in dishwasher loaded")
        container_test(results, podman, ha, arguments.container_image, arguments.work)
        addon_test(results, podman, ha, arguments.addon_image, arguments.work)
    except (Failure, onboard.OnboardError, OSError) as failure:
        results.fail("home assistant", f"{failure}\n--- end of {ha.log} ---\n{ha.log_tail()}")
    finally:
        ha.stop()
        print(f"deploy: live tests took {time.monotonic() - started:.0f} s", flush=True)
        with open(arguments.results, "w", encoding="utf-8") as file:
            file.write(f"{results.passed} {results.failed}\n")
    return 0 if results.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
