"""Reference solution for perf-1: warm up, then block before every clock read."""

import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    # The first call traces and compiles; keep it out of the timing.
    jax.block_until_ready(f(*args))
    start = clock()
    for _ in range(n_runs):
        # Without the wait, the loop would only measure how fast work is queued.
        result = jax.block_until_ready(f(*args))
    seconds = (clock() - start) / n_runs
    return result, seconds
