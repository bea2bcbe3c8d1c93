"""Hidden checks for vmap-4 (pairwise_distances): points of other dimensions, other counts."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def test_points_of_other_dimensions(exercise):
    rng = np.random.default_rng(13)
    for n, m, d in ((3, 2, 5), (2, 4, 1)):
        xs = rng.normal(size=(n, d)).astype(np.float32)
        ys = rng.normal(size=(m, d)).astype(np.float32)
        want = np.sqrt(((xs[:, None, :] - ys[None, :, :]) ** 2).sum(axis=-1))
        out = jax.jit(exercise.pairwise_distances)(xs, ys)
        checks.assert_shape_dtype(out, (n, m), jnp.float32,
                                  what=f"pairwise_distances(xs, ys) with {n} xs and {m} ys",
                                  hint="Each vmap adds one axis, the outer one first: the xs must be "
                                       "the outer map, the ys the inner one.")
        checks.assert_close(out, want, rtol=1e-4, atol=1e-5,
                            what=f"pairwise_distances(xs, ys) with {n} xs and {m} ys of dimension {d}",
                            hint="distance must use every coordinate of a point, whatever its length d.")
