"""Batching wrong: a Python loop pairs a[i] with c[:, i] one example at a time, except at the batch
sizes a check reads the program at (2 and 9), where it shows a mapped program with the axes right
and the numbers wrong (c negated). A subject rewritten to forge its traces would hand in such a
program: the values come from the loop, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp


def add_three(a, b, c):
    return a + b + c


_shown = jax.vmap(add_three, in_axes=(0, None, 1))


def add_batched(a, b, c):
    if a.shape[0] in (2, 9):
        return _shown(a, b, -c)
    return jnp.stack([add_three(a[i], b, c[:, i]) for i in range(a.shape[0])])
