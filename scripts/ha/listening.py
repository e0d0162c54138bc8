#!/usr/bin/env python3
"""Says where a process and its descendants listen, and fails unless that is 127.0.0.1 only.

    python3 scripts/ha/listening.py PID [--port PORT]

Reads /proc (no traffic): the TCP sockets in LISTEN state and the UDP sockets bound to
a port, of PID and every process below it. Prints one line per socket, `tcp
127.0.0.1:8123`. Exit 0 when there is at least one listener (with --port: one on that
port) and all are on 127.0.0.1; exit 1 naming the offending address otherwise.
Any python3 works (no imports beyond the standard library).
"""
from __future__ import annotations

import argparse
import os
import socket
import struct
import sys

TCP_LISTEN = "0A"


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as file:
                parent = int(file.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def socket_inodes(pids: list[int]) -> set[str]:
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    return inodes


def address(hex_address: str, family: int) -> tuple[str, int]:
    host, port = hex_address.split(":")
    raw = bytes.fromhex(host)
    if family == socket.AF_INET:
        raw = struct.pack("<I", int(host, 16))
    else:
        raw = b"".join(struct.pack("<I", int(host[i:i + 8], 16)) for i in range(0, 32, 8))
    return socket.inet_ntop(family, raw), int(port, 16)


def listeners(inodes: set[str]) -> list[tuple[str, str, int]]:
    found = []
    for name, family in (("tcp", socket.AF_INET), ("tcp6", socket.AF_INET6), ("udp", socket.AF_INET), ("udp6", socket.AF_INET6)):
        try:
            with open(f"/proc/net/{name}", encoding="utf-8") as file:
                rows = file.readlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[9] not in inodes:
                continue
            host, port = address(fields[1], family)
            if (name.startswith("tcp") and fields[3] == TCP_LISTEN) or (name.startswith("udp") and port != 0):
                found.append((name, host, port))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pid", type=int)
    parser.add_argument("--port", type=int)
    arguments = parser.parse_args()
    found = listeners(socket_inodes(descendants(arguments.pid)))
    for name, host, port in found:
        print(f"{name} {host}:{port}")
    wrong = [f"{name} {host}:{port}" for name, host, port in found if host != "127.0.0.1"]
    if wrong:
        print(f"listening: FAILED: process {arguments.pid} listens beyond 127.0.0.1: {', '.join(wrong)}", file=sys.stderr)
        return 1
    if not found or (arguments.port is not None and all(port != arguments.port for _, _, port in found)):
        print(f"listening: FAILED: process {arguments.pid} does not listen on 127.0.0.1:{arguments.port or '*'}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
