#!/usr/bin/env python3
"""Fails when a function, initializer or closure-valued property body in Sources/ (outside
the benchmark and the test stand-ins) runs over 60 lines. Counted from the line of the
declaration to its closing brace, as a reader sees it."""
import re
import sys
from pathlib import Path

LIMIT = 60
ROOT = Path(__file__).resolve().parent.parent
SKIP = {"cycletrack-bench", "HTTPStandIn"}
DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|class|final|override|mutating|nonisolated|convenience|required|isolated|@discardableResult)\s+)*(?:func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b")


def strip(line):
    """The line without string literals and comments, near enough for brace counting."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def long_functions(path):
    lines = path.read_text().splitlines()
    found = []
    i = 0
    while i < len(lines):
        if DECL.match(lines[i]) and "protocol" not in lines[i]:
            depth, opened, j = 0, False, i
            in_block = False
            while j < len(lines):
                text = lines[j]
                if '"""' in text:
                    in_block = not in_block if text.count('"""') == 1 else in_block
                    j += 1
                    continue
                if not in_block:
                    code = strip(text)
                    depth += code.count("{") - code.count("}")
                    opened = opened or "{" in code
                if opened and depth <= 0:
                    break
                if not opened and j > i and (code.strip() == "" or DECL.match(text)):
                    break  # a requirement without a body
                j += 1
            length = j - i + 1
            if opened and length > LIMIT:
                found.append((i + 1, length, lines[i].strip()))
            i += 1
            continue
        i += 1
    return found


def main():
    bad = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        if SKIP & set(path.relative_to(ROOT / "Sources").parts):
            continue
        for line, length, decl in long_functions(path):
            bad.append(f"{path.relative_to(ROOT)}:{line}: {length} lines: {decl}")
    for entry in bad:
        print(entry)
    if bad:
        print(f"{len(bad)} function(s) over {LIMIT} lines", file=sys.stderr)
        return 1
    print(f"no function in Sources/ over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
