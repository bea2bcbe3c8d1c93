"""How long grading takes: one submission, and a class serially vs in parallel.

    python benchmarks/grade_throughput.py                 # the whole manifest, 4 students
    python benchmarks/grade_throughput.py --only purity --students 8

Prints seconds per submission for `grader batch --workers 1` and `--workers 2`
on copies of the reference solutions (every check runs; nothing is cached
between students: each submission gets a fresh compilation cache, as in real
grading).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def batch_seconds(submissions: Path, workers: int, only: list[str]) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "grader.cli", "batch", str(submissions), "--out", out,
                        "--workers", str(workers), *only], check=True, capture_output=True, cwd=REPO)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="grade only these exercises (ids or topics)")
    parser.add_argument("--students", type=int, default=4)
    args = parser.parse_args()
    only = ["--only", args.only] if args.only else []
    with tempfile.TemporaryDirectory() as tmp:
        submissions = Path(tmp)
        for i in range(args.students):
            shutil.copytree(REPO / "solutions", submissions / f"student{i}")
        for workers in (1, 2):
            seconds = batch_seconds(submissions, workers, only)
            print(f"--workers {workers}: {seconds:7.1f} s for {args.students} submissions, "
                  f"{seconds / args.students:6.1f} s per submission")


if __name__ == "__main__":
    main()
