"""Wall time of the checks over the reference solutions, cold and warm compilation cache.

    python benchmarks/suite_time.py            # every topic
    python benchmarks/suite_time.py 05_lax_control_flow

Prints the wall time of `pytest exercises/<topic> --target solutions` with an
empty persistent cache and then with the cache it left behind, and the five
slowest checks of the warm run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(target: str, cache_home: str) -> tuple[float, str]:
    env = {**os.environ, "XDG_CACHE_HOME": cache_home}
    env.pop("JAX_KATAS_NO_CACHE", None)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", target, "--target", "solutions", "-q",
                           "--durations=5"], cwd=REPO, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"the reference solutions failed:\n{proc.stdout[-3000:]}")
    return time.perf_counter() - start, proc.stdout


def main() -> None:
    target = f"exercises/{sys.argv[1]}" if len(sys.argv) > 1 else "exercises"
    with tempfile.TemporaryDirectory() as cache_home:
        cold, _ = run(target, cache_home)
        warm, output = run(target, cache_home)
    print(f"{target}: cold cache {cold:.1f} s, warm cache {warm:.1f} s")
    slowest = output.split("slowest 5 durations", 1)[-1].splitlines()[1:6]
    print("slowest checks (warm):\n" + "\n".join(f"  {line}" for line in slowest))


if __name__ == "__main__":
    main()
