"""Mutant: reports the total time of the n_runs calls, not the mean per call."""
import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    jax.block_until_ready(f(*args))
    start = clock()
    for _ in range(n_runs):
        result = jax.block_until_ready(f(*args))
    return result, clock() - start
