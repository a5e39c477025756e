#!/usr/bin/env python3
"""Lists the tests a swift-testing log shows started and never ended: after a run that hung and was
stopped, these are where to look (the log may lack the last lines the test process had buffered)."""
import re
import sys

started, ended = [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if match := re.match(r"◇ Test (.*) started\.$", line.rstrip("\n")):
        started.append(match.group(1))
    elif match := re.match(r"[✔✘] Test (.*?)(?: with \d+ test cases?)? (?:passed|failed) after ", line):
        ended.add(match.group(1))
for name in started:
    # Argument cases and the run itself say nothing when they end; their test does.
    if name not in ended and not name.startswith("case passing ") and name != "run":
        print(name)
