"""Wrong: no warm-up call, so the first timed call also traces and compiles f."""

import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    start = clock()
    for _ in range(n_runs):
        result = jax.block_until_ready(f(*args))
    return result, (clock() - start) / n_runs
