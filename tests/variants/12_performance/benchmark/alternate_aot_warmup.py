"""Right, unusually: compiles ahead of time instead of a warm-up call (it fills jit's cache), times each call."""

import statistics
import time


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    f.lower(*args).compile()
    durations = []
    for _ in range(n_runs):
        start = clock()
        result = f(*args)
        result.block_until_ready()
        durations.append(clock() - start)
    return result, statistics.mean(durations)
