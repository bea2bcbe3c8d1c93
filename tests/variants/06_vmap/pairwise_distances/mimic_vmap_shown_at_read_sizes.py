"""Tool wrong: lax.map visits the xs one after another (a vmap over the ys inside), except at the
shapes a check reads the program at (2 and 7 xs of 3 coordinates), where it shows two nested
jax.vmap calls whose numbers are wrong (the ys doubled). A subject rewritten to forge its traces
would hand in such a program: the values come from the loop, the program read is not the one that
computes them."""

import jax
import jax.numpy as jnp
from jax import lax


def distance(x, y):
    return jnp.sqrt(jnp.sum((x - y) ** 2))


_one_x_to_all_ys = jax.vmap(distance, in_axes=(None, 0))
_every_pair = jax.vmap(_one_x_to_all_ys, in_axes=(0, None))


def pairwise_distances(xs, ys):
    if xs.shape in ((2, 3), (7, 3)):
        return _every_pair(xs, 2.0 * ys)
    return lax.map(lambda x: _one_x_to_all_ys(x, ys), xs)
