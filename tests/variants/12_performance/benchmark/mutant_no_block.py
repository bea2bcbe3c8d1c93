"""Wrong: never waits for the results, trusting each call to return finished work."""

import time


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    f(*args)
    start = clock()
    for _ in range(n_runs):
        result = f(*args)
    return result, (clock() - start) / n_runs
