"""Right, unusually: times each call on its own (clock before and after each) and averages the durations."""
import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    jax.block_until_ready(f(*args))
    times = []
    for _ in range(n_runs):
        start = clock()
        result = jax.block_until_ready(f(*args))
        times.append(clock() - start)
    return result, sum(times) / len(times)
