"""Values right, batching wrong: a Python loop pairs a[i] with c[:, i] one example at a time, so the
program holds one copy of add_three per example."""

import jax.numpy as jnp


def add_three(a, b, c):
    return a + b + c


def add_batched(a, b, c):
    return jnp.stack([add_three(a[i], b, c[:, i]) for i in range(a.shape[0])])
