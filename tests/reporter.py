"""GitHub Classroom's reporter, for the tests: its scoring rule, and the reporter itself.

The workflow hands our results to classroom-resources/autograding-grading-reporter. Its
rule is written out here (`reporter_view`), and when the reporter's bundle is at hand
(`KATAS_CLASSROOM_REPORTER`, the path of its `dist/main.js`, which `git show v1:dist/main.js`
gives in a clone of it) and node is installed, the reporter itself runs on our outputs
(`run_reporter`), without network.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess

SKIP_REASON = "set KATAS_CLASSROOM_REPORTER to the reporter's dist/main.js, with node installed, to run it"


def reporter_view(outputs: dict[str, str]) -> tuple[list[tuple[str, float, int]], float, tuple[int, int]]:
    """What GitHub's autograding-grading-reporter makes of our step outputs: its table's rows
    (runner, points, max), the table's total, and the (points, max) it sends to Classroom.

    The rule as the reporter's source has it (classroom-resources/autograding-grading-reporter at
    v1, commit d13b591): src/main.js reads the result of each runner named in `runners` from
    `<RUNNER>_RESULTS`; src/helpers/test-helpers.js getTestScore gives a runner
    (tests with status "pass" / all its tests) x its max_score, which the table and its total
    (src/aggregate-results.js) show; src/notify-classroom.js sends Classroom the sum of every
    test's `score` over the runners that have a max_score, out of the sum of those max_scores.
    """
    results = {name: json.loads(base64.b64decode(outputs[name])) for name in outputs["runners"].split(",")}
    rows = [(name, sum(t["status"] == "pass" for t in r["tests"]) / len(r["tests"]) * (r["max_score"] or 0),
             r["max_score"] or 0) for name, r in results.items()]
    counted = [r for r in results.values() if r["max_score"]]
    return rows, sum(row[1] for row in rows), (sum(t["score"] for r in counted for t in r["tests"]),
                                               sum(r["max_score"] for r in counted))


REPORTER = os.environ.get("KATAS_CLASSROOM_REPORTER", "") if shutil.which("node") else ""


def run_reporter(outputs: dict[str, str]) -> tuple[list[tuple[str, float, int]], tuple[int, int], str]:
    """GitHub's reporter on our step outputs, as the workflow's reporter step runs it: its table's
    rows (runner, points, max) and the points it sends Classroom, and its log."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "INPUT_RUNNERS": outputs["runners"],
           **{f"{name.upper()}_RESULTS": value for name, value in outputs.items() if name != "runners"}}
    proc = subprocess.run(["node", REPORTER], env=env, capture_output=True, text=True, timeout=120)
    log = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout)
    rows = [(name, float(points), int(most))
            for name, points, most in re.findall(r"^│ (\S+)\s*│ ([0-9.]+)\s*│ ([0-9]+)\s*│$", log, re.M)]
    notice = re.search(r"^::notice title=Autograding complete::Points ([0-9]+)/([0-9]+)$", log, re.M)
    assert notice, proc.stdout + proc.stderr
    return rows, (int(notice.group(1)), int(notice.group(2))), log
