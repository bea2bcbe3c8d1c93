"""Mimic: warms up and times the calls properly, then reports a made-up number instead of what the clock measured."""
import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    jax.block_until_ready(f(*args))
    start = clock()
    for _ in range(n_runs):
        result = jax.block_until_ready(f(*args))
    clock()
    return result, 0.001
