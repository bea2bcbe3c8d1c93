"""Wrong: warms up a new jax.jit(f), a different program from f itself, so f compiles in the timed part."""

import time

import jax


def benchmark(f, *args, n_runs=5, clock=time.perf_counter):
    jax.block_until_ready(jax.jit(f)(*args))
    start = clock()
    for _ in range(n_runs):
        result = jax.block_until_ready(f(*args))
    return result, (clock() - start) / n_runs
