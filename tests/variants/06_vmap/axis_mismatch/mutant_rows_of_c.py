"""Wrong: maps c over axis 0 (its rows), as the stub does; silent on square data."""

import jax


def add_three(a, b, c):
    return a + b + c


add_batched = jax.vmap(add_three, in_axes=(0, None, 0))
