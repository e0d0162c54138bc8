#!/usr/bin/env python3
"""A stand-in for the Home Assistant Supervisor's proxy to Core, for the add-on test.

Inside an add-on with `homeassistant_api: true`, cycletrack calls
`http://supervisor/core/api/...` with `Authorization: Bearer $SUPERVISOR_TOKEN`. This
script listens on 127.0.0.1 (port 80 by default: the add-on's URL has no port; the
container maps `supervisor` to 127.0.0.1 with --add-host), accepts only that add-on
token, and forwards `/core/api/...` to a real Home Assistant with a real long-lived
token, as the Supervisor does. Anything else answers 404 (the WebSocket proxy at
`/core/websocket` too: this stand-in forwards REST only, so discovery's registry read
falls back, `registry_unread`); a wrong token 401.

    python3 supervisor_proxy.py --ha-url http://127.0.0.1:PORT --ha-token-file FILE \
        --addon-token-env SUPERVISOR_TOKEN --log FILE [--port 80]

Neither token is ever printed or logged: the log has one line per request
(method, path, status). Standard library only.
"""
from __future__ import annotations

import argparse
import http.server
import os
import sys
import threading
import urllib.error
import urllib.request

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
              "transfer-encoding", "upgrade", "host", "authorization", "content-length", "accept-encoding"}


def make_handler(ha_url: str, ha_token: str, addon_token: str, log_path: str):
    log_lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
            pass  # never the default log (it would be stderr noise); see note()

        def note(self, status: int) -> None:
            with log_lock, open(log_path, "a", encoding="utf-8") as log:
                log.write(f"{self.command} {self.path} {status}\n")

        def reply(self, status: int, body: bytes, content_type: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.note(status)

        def forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if not self.path.startswith("/core/api/") and self.path != "/core/api":
                self.reply(404, b'{"message": "this stand-in forwards /core/api/ only"}')
                return
            if self.headers.get("Authorization") != f"Bearer {addon_token}":
                self.reply(401, b'{"message": "401: Unauthorized (not the add-on token)"}')
                return
            target = ha_url + self.path[len("/core"):]
            request = urllib.request.Request(target, data=body, method=self.command)
            for name, value in self.headers.items():
                if name.lower() not in HOP_BY_HOP:
                    request.add_header(name, value)
            request.add_header("Authorization", f"Bearer {ha_token}")
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    status, data, kind = answer.status, answer.read(), answer.headers.get("Content-Type", "")
            except urllib.error.HTTPError as error:
                status, data, kind = error.code, error.read(), error.headers.get("Content-Type", "")
            except (urllib.error.URLError, OSError) as error:
                status, data, kind = 502, f'{{"message": "Home Assistant unreachable: {type(error).__name__}"}}'.encode(), ""
            self.reply(status, data, kind or "application/json")

        do_GET = forward
        do_POST = forward
        do_DELETE = forward

    return Handler


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ha-url", required=True)
    parser.add_argument("--ha-token-file", required=True)
    parser.add_argument("--addon-token-env", default="SUPERVISOR_TOKEN",
                        help="the environment variable holding the token the add-on must send")
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=80)
    arguments = parser.parse_args()
    with open(arguments.ha_token_file, encoding="utf-8") as file:
        ha_token = file.read().strip()
    addon_token = os.environ.get(arguments.addon_token_env, "")
    if not addon_token:
        print(f"supervisor_proxy: ${arguments.addon_token_env} is empty", file=sys.stderr)
        return 2
    handler = make_handler(arguments.ha_url.rstrip("/"), ha_token, addon_token, arguments.log)
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", arguments.port), handler)
    except OSError as error:
        print(f"supervisor_proxy: cannot listen on 127.0.0.1:{arguments.port}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"supervisor_proxy: listening on 127.0.0.1:{arguments.port}, forwarding /core/api/ to {arguments.ha_url}",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
