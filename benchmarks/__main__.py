"""Every speed target, measured in one run: `python -m benchmarks [--quick] [--json FILE]`.

Prints a table (figure, value, target, ratio to target, pass/fail) and writes
it as JSON (default benchmarks/results.json). Each timing is also given as a
multiple of the time this machine takes to start JAX, measured in the same
run: on a busy machine every figure slows down together, so a regression
shows in that column even when the seconds are noisy.

Figures:
- grade: `grader grade` of a full correct submission (a copy of the reference
  solutions), seconds and seconds per exercise; also the number of exercises,
  and how many requests the examiner sent the subject (grader.remote).
- grade with failures: a submission with a few failing exercises, one of them
  an endless loop, against the correct one plus the timeout it earned (best
  of two runs of each).
- batch: `grader batch --workers 2` against `--workers 1` on the same class
  (throughput ratio, best of three alternated runs of each), and the memory peak
  of one submission's check processes.
- one exercise: `pytest <one check file>` and `grader next`, warm; and `grader
  watch`'s save-to-verdict time (median of several saves of an exercise whose
  programs are in the compilation cache).
- authoring (skipped by --quick): `grader check` of the whole course, against
  what the project's soundness tests took before the command shared their
  engine; `grader check --mutate`: the derived mutants that survive every
  check, and the seconds of checks each exercise's mutants cost (per exercise
  in the JSON, under "mutation").
- project suite: the project's own `pytest` (skipped by --quick).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
STUDENTS = 4  # per batch
BATCH_RUNS = 3  # runs of each batch, alternated; the best counts (slow spells last minutes)
LOOP_TIMEOUT = 5  # the per-check limit for the submission with an endless loop
SAVES = 7  # saves timed by the watch figure (the median counts)
# `grader check` of the whole course must take no longer than the project's soundness tests took
# before it existed: 150 s on the 2-core machine they were measured on, 175 times its JAX start.
SOUNDNESS_TESTS_IN_JAX_STARTS = 175


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    target: float
    better: str  # "lower" or "higher"
    in_jax_starts: float | None = None  # value / the time to start JAX in this run (timings only)
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.value / self.target if self.target else float("nan")

    @property
    def passed(self) -> bool:
        return self.value <= self.target if self.better == "lower" else self.value >= self.target


def run(command: list, *, cwd: Path = REPO, env: dict | None = None, check: bool = True) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if check and done.returncode not in (0,):
        raise SystemExit(f"benchmark step failed: {' '.join(map(str, command))}\n{done.stdout[-2000:]}"
                         f"\n{done.stderr[-2000:]}")
    return seconds, done.stdout + done.stderr


def jax_start_seconds() -> float:
    """The machine's pace: the median time to start Python and import JAX, three times."""
    return statistics.median(run([PYTHON, "-c", "import jax; jax.devices()"])[0] for _ in range(3))


def grader(*args: str) -> list[str]:
    return [PYTHON, "-m", "grader.cli", *args]


def exercises_count() -> int:
    sys.path.insert(0, str(REPO))
    from grader.manifest import load_manifest

    return len(load_manifest(REPO / "exercises"))


def grade_figures(scratch: Path, pace: float) -> list[Figure]:
    correct = scratch / "correct"
    shutil.copytree(REPO / "solutions", correct)
    run(grader("warm"))  # built once per version of the checks, as a course would
    results = scratch / "correct.json"
    run(grader("grade", str(correct), "--json", str(results)))  # settle the OS's file cache
    round_trips = json.loads(results.read_text())["isolation"]["round_trips"]
    times = [run(grader("grade", str(correct)))[0] for _ in range(2)]
    seconds = min(times)
    n = exercises_count()
    failing = scratch / "failing"
    shutil.copytree(correct, failing)
    stubs = ["01_purity/no_mutation.py", "04_static_args/loop_count.py", "06_vmap/batch_predict.py"]
    for rel in stubs:
        shutil.copyfile(REPO / "exercises" / rel, failing / rel)
    (failing / "03_jit_tracing/compile_once.py").write_text("while True:\n    pass\n")
    # Best of as many runs as the correct one: noise only ever adds time, to either side.
    with_loop = min(run(grader("grade", str(failing), "--timeout", str(LOOP_TIMEOUT)))[0] for _ in times)
    earned = seconds + LOOP_TIMEOUT
    return [
        Figure("exercises in the curriculum", n, "exercises", 95, "higher"),
        Figure("grade: a full correct submission", seconds, "s", 12.0, "lower", seconds / pace,
               f"{seconds / n:.3f} s per exercise; best of {len(times)}"),
        Figure("grade: examiner/subject round trips for a full correct submission", round_trips, "requests",
               40 * n, "lower", None, f"{round_trips / n:.1f} per exercise: every request the examiner "
                                      f"sent the process that runs the submission"),
        Figure("grade: a submission with 4 failing exercises (one an endless loop), vs correct + timeout",
               with_loop / earned, "x", 1.0, "lower", None,
               f"{with_loop:.1f} s vs {seconds:.1f} s + a {LOOP_TIMEOUT} s timeout; best of {len(times)} each"),
    ]


def batch_figures(scratch: Path, pace: float) -> list[Figure]:
    klass = scratch / "class"
    for i in range(STUDENTS):
        shutil.copytree(REPO / "solutions", klass / f"student{i}")
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(BATCH_RUNS):  # alternated, so a slow spell of the machine hits both sides alike
        for workers in (1, 2):
            out = scratch / f"grades{workers}"
            times[workers].append(run(grader("batch", str(klass), "--out", str(out), "--workers", str(workers),
                                             "--regrade"))[0])
    seconds = {workers: min(runs) for workers, runs in times.items()}  # noise only ever adds time
    speedup = seconds[1] / seconds[2]
    peak = memory_peak(klass / "student0")
    return [
        Figure("batch: throughput of --workers 2 over --workers 1", speedup, "x", 1.8, "higher", None,
               f"{seconds[1]:.1f} s vs {seconds[2]:.1f} s for {STUDENTS} submissions; best of {BATCH_RUNS} each"),
        Figure("batch: seconds per submission, --workers 2", seconds[2] / STUDENTS, "s", 12.0, "lower",
               seconds[2] / STUDENTS / pace),
        Figure("memory peak of one submission's check processes", peak, "MiB", 4096, "lower", None,
               "largest resident set of a check process (the limit is address space, 4096 MiB)"),
    ]


def memory_peak(submission: Path) -> float:
    """MiB: the largest resident set among the check processes of one grading (jobs=1)."""
    code = ("import resource, sys; from pathlib import Path; from grader.grading import grade; "
            "grade(Path(sys.argv[1])); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    # Under bubblewrap the check process is a grandchild the rusage of children never sees; the
    # limits-only mode runs the same checks as a direct child.
    _, out = run([PYTHON, "-c", code, str(submission)], env={"KATAS_ISOLATION": "process"})
    return int(out.strip().splitlines()[-1]) / 1024


def one_exercise_figures(scratch: Path, pace: float) -> list[Figure]:
    check = "exercises/01_purity/test_global_config.py"
    command = [PYTHON, "-m", "pytest", check, "--target", "solutions", "-q"]
    run(command)  # warm the compilation cache
    pytest_seconds = statistics.median(run(command)[0] for _ in range(3))
    learner = scratch / "learner"  # a learner's clone, where `grader next` runs the current exercise
    subprocess.run(["git", "clone", "-q", str(REPO), str(learner)], check=True)
    for rel in ("exercises", "solutions", "grader"):
        shutil.rmtree(learner / rel)
        shutil.copytree(REPO / rel, learner / rel, ignore=shutil.ignore_patterns("__pycache__"))
    next_command = grader("next", "--repo", str(learner))
    run(next_command, check=False)
    next_seconds = statistics.median(run(next_command, check=False)[0] for _ in range(3))
    saves = save_to_verdict(learner)
    return [
        Figure("one exercise: pytest <one check file>, warm", pytest_seconds, "s", 1.5, "lower",
               pytest_seconds / pace, "median of 3"),
        Figure("one exercise: grader next, warm", next_seconds, "s", 1.5, "lower", next_seconds / pace,
               "median of 3; the first exercise, unsolved"),
        Figure("one exercise: grader watch, save to verdict", statistics.median(saves), "s", 0.3, "lower",
               statistics.median(saves) / pace,
               f"median of {len(saves)} saves (fastest {min(saves):.2f} s, slowest {max(saves):.2f} s); "
               f"the first exercise, unsolved, its programs cached"),
    ]


def save_to_verdict(learner: Path) -> list[float]:
    """Seconds from writing the exercise file to `grader watch` printing its verdict, per save."""
    stub = learner / "exercises" / "01_purity" / "global_config.py"
    original = stub.read_text()
    watcher = subprocess.Popen(grader("watch", "purity-1", "--repo", str(learner)), cwd=learner,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    verdicts: list[float] = []  # when each "[watch] ... not done yet" line arrived
    changed = threading.Condition()

    def read() -> None:
        for line in watcher.stdout:
            if "[watch] purity-1 not done yet" in line:
                with changed:
                    verdicts.append(time.perf_counter())
                    changed.notify_all()

    threading.Thread(target=read, daemon=True).start()

    def next_verdict(count: int) -> float:
        with changed:
            if not changed.wait_for(lambda: len(verdicts) > count, timeout=120):
                watcher.kill()
                raise SystemExit("benchmark step failed: grader watch gave no verdict within 120 s")
            return verdicts[count]

    seconds = []
    try:
        next_verdict(0)  # the first run: the warm process starts, the programs are compiled or cached
        for i in range(SAVES):
            time.sleep(0.5)  # a learner's pause between saves
            saved = time.perf_counter()
            stub.write_text(f"{original}\n# save {i}\n")
            seconds.append(next_verdict(i + 1) - saved)
    finally:
        watcher.kill()
        watcher.wait()
        stub.write_text(original)
    return seconds
def authoring_figures(scratch: Path, pace: float) -> tuple[list[Figure], dict]:
    """`grader check` of the whole course, then `grader check --mutate`; and each exercise's mutation
    figures (derived mutants, survivors, seconds of checks on them)."""
    check_seconds, _ = run(grader("check", "--report", str(scratch / "check.json")), check=False)
    proof = json.loads((scratch / "check.json").read_text())
    unsound = [e["id"] for e in proof["exercises"] if e["problems"]]
    mutate_seconds, _ = run(grader("check", "--mutate", "--report", str(scratch / "mutate.json")), check=False)
    mutated = json.loads((scratch / "mutate.json").read_text())["exercises"]
    per_exercise = {e["id"]: {"mutants": len(e["mutants"]), "survivors": [s["name"] for s in e["survivors"]],
                              "declared_right": sum(m["status"] == "equivalent" for m in e["mutants"]),
                              "seconds": e["mutate_seconds"]} for e in mutated}
    survivors = [f"{i}:{name}" for i, e in per_exercise.items() for name in e["survivors"]]
    made = sum(e["mutants"] for e in per_exercise.values())
    declared = sum(e["declared_right"] for e in per_exercise.values())
    seconds = [e["seconds"] for e in per_exercise.values()]
    slowest = max(per_exercise.items(), key=lambda item: item[1]["seconds"])
    target = SOUNDNESS_TESTS_IN_JAX_STARTS * pace
    return [
        Figure("check: grader check of the whole course", check_seconds, "s", target, "lower",
               check_seconds / pace, f"{len(proof['exercises'])} exercises, {len(unsound)} unsound"
               + (f" ({', '.join(unsound[:3])})" if unsound else "") + "; target: the soundness tests before "
               f"(175 JAX starts)"),
        Figure("mutate: derived mutants that survive every check", len(survivors), "mutants", 0, "lower", None,
               f"{made} derived, {declared} declared right answers (mutants.toml)"
               + (f"; {', '.join(survivors[:4])}" if survivors else "")),
        Figure("mutate: seconds of checks per exercise", statistics.mean(seconds) if seconds else 0.0, "s", 3.0,
               "lower", None, f"slowest {slowest[0]} {slowest[1]['seconds']:.1f} s; the whole --mutate run "
                              f"{mutate_seconds:.0f} s, proof included"),
    ], per_exercise


def suite_figures(pace: float) -> list[Figure]:
    seconds, out = run([PYTHON, "-m", "pytest", "-q", "-p", "no:randomly"], check=False)
    summary = next((line for line in reversed(out.splitlines()) if " in " in line and "passed" in line), "")
    failed = [line.split()[1] for line in out.splitlines() if line.startswith(("FAILED ", "ERROR "))]
    if failed:
        summary += "; " + ", ".join(failed[:3]) + (", ..." if len(failed) > 3 else "")
    return [Figure("project suite: pytest", seconds / 60, "min", 4.0, "lower", seconds / pace, summary.strip("= "))]


def table(figures: list[Figure], pace: float) -> str:
    rows = [("figure", "value", "target", "ratio", "x JAX start", "", "note")]
    for f in figures:
        sign = "<=" if f.better == "lower" else ">="
        rows.append((f.name, f"{f.value:.2f} {f.unit}", f"{sign} {f.target:g} {f.unit}", f"{f.ratio:.2f}",
                     "" if f.in_jax_starts is None else f"{f.in_jax_starts:.1f}", "pass" if f.passed else "FAIL",
                     f.note))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r[:6], widths)) + ("  " + r[6] if r[6] else "")
             for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    lines.append(f"\nthe machine's pace: starting JAX takes {pace:.2f} s in this run; "
                 f"{os.cpu_count()} cores")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip `grader check` (with and without --mutate) and the project suite (about 12 "
                             "minutes)")
    parser.add_argument("--json", type=Path, default=REPO / "benchmarks" / "results.json",
                        help="where to write the table as JSON (default %(default)s)")
    args = parser.parse_args()
    pace = jax_start_seconds()
    figures: list[Figure] = []
    mutation: dict = {}
    with tempfile.TemporaryDirectory(prefix="katas-bench-") as tmp:
        scratch = Path(tmp)
        figures += grade_figures(scratch, pace)
        figures += batch_figures(scratch, pace)
        figures += one_exercise_figures(scratch, pace)
        if not args.quick:
            authoring, mutation = authoring_figures(scratch, pace)
            figures += authoring
    if not args.quick:
        figures += suite_figures(pace)
    print(table(figures, pace))
    args.json.write_text(json.dumps({
        "jax_start_seconds": round(pace, 3), "cores": os.cpu_count(),
        "figures": [{**asdict(f), "ratio": round(f.ratio, 3), "passed": f.passed} for f in figures],
        "mutation": mutation,
    }, indent=2) + "\n")
    print(f"written to {args.json}")
    return 0 if all(f.passed for f in figures) else 1


if __name__ == "__main__":
    sys.exit(main())
