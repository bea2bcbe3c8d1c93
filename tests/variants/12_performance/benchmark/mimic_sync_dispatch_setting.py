"""Wrong: never waits for a result; it switches CPU async dispatch off for the whole program instead, so its calls happen to finish before returning on a CPU (on a GPU or TPU they still return early)."""

import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    jax.config.update("jax_cpu_enable_async_dispatch", False)
    f(*args)
    start = clock()
    for _ in range(n_runs):
        result = f(*args)
    return result, (clock() - start) / n_runs
