#!/usr/bin/env python3
"""Small Home Assistant REST client for tests and by hand. Reads the token from a
file, so it never appears on a command line; never prints it.

    hactl.py [--url URL] [--token-file FILE] COMMAND ...

    get PATH                               GET /api/PATH, print the JSON
    post PATH [JSON|-]                     POST /api/PATH with a JSON body (- reads stdin)
    set-state ENTITY_ID STATE [--attributes JSON]
                                           POST /api/states/ENTITY_ID
    call DOMAIN SERVICE [JSON|-]           POST /api/services/DOMAIN/SERVICE
    template TEMPLATE                      POST /api/template, print the rendered text

URL defaults to $CYCLETRACK_HA_URL, the token file to $CYCLETRACK_HA_TOKEN_FILE.
Exit status: 0 on 2xx, 1 on any other answer (its status and body on stderr),
2 on a usage error. Standard library only.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request


def request(url: str, token: str, method: str, path: str, body: object | None) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{url}/api/{path.lstrip('/')}", data=data, method=method)
    req.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def json_argument(text: str | None) -> object:
    if text is None:
        return {}
    raw = sys.stdin.read() if text == "-" else text
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise SystemExit(f"hactl: the JSON argument is not valid JSON: {error}") from error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("CYCLETRACK_HA_URL"))
    parser.add_argument("--token-file", default=os.environ.get("CYCLETRACK_HA_TOKEN_FILE"))
    commands = parser.add_subparsers(dest="command", required=True)
    get = commands.add_parser("get")
    get.add_argument("path")
    post = commands.add_parser("post")
    post.add_argument("path")
    post.add_argument("json", nargs="?")
    set_state = commands.add_parser("set-state")
    set_state.add_argument("entity_id")
    set_state.add_argument("state")
    set_state.add_argument("--attributes")
    call = commands.add_parser("call")
    call.add_argument("domain")
    call.add_argument("service")
    call.add_argument("json", nargs="?")
    template = commands.add_parser("template")
    template.add_argument("template")
    arguments = parser.parse_args()
    if not arguments.url or not arguments.token_file:
        parser.error("give --url and --token-file (or $CYCLETRACK_HA_URL and $CYCLETRACK_HA_TOKEN_FILE)")
    try:
        with open(arguments.token_file, encoding="utf-8") as file:
            token = file.read().strip()
    except OSError as error:
        print(f"hactl: cannot read the token file {arguments.token_file}: {error.strerror}", file=sys.stderr)
        return 1
    url = arguments.url.rstrip("/")

    if arguments.command == "get":
        status, text = request(url, token, "GET", arguments.path, None)
    elif arguments.command == "post":
        status, text = request(url, token, "POST", arguments.path, json_argument(arguments.json))
    elif arguments.command == "set-state":
        body = {"state": arguments.state, "attributes": json_argument(arguments.attributes)}
        status, text = request(url, token, "POST", f"states/{arguments.entity_id}", body)
    elif arguments.command == "call":
        path = f"services/{arguments.domain}/{arguments.service}"
        status, text = request(url, token, "POST", path, json_argument(arguments.json))
    else:
        status, text = request(url, token, "POST", "template", {"template": arguments.template})

    if 200 <= status < 300:
        print(text)
        return 0
    print(f"hactl: HTTP {status}: {text[:2000]}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
