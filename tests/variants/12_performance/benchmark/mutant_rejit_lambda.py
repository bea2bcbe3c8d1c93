"""Wrong: wraps f in a fresh jax.jit(lambda ...) on every benchmark, so every benchmark compiles again."""

import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    compiled = jax.jit(lambda *a: f(*a))
    jax.block_until_ready(compiled(*args))
    start = clock()
    for _ in range(n_runs):
        result = jax.block_until_ready(compiled(*args))
    return result, (clock() - start) / n_runs
