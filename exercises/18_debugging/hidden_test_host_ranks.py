"""Hidden checks for debug-4 (host_ranks): other lengths and a 2-D input, which the visible checks do not show."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks


def _ranks(x):
    return np.argsort(np.argsort(x, axis=-1), axis=-1).astype(np.int32)


def test_any_shape_of_input(exercise):
    rng = np.random.default_rng(11)
    for shape in ((4,), (3, 9)):
        x = rng.permutation(int(np.prod(shape))).reshape(shape).astype(np.float32)
        try:
            out = jax.block_until_ready(jax.jit(exercise.ranks)(jnp.asarray(x)))
        except jax.errors.JaxRuntimeError as error:  # raised inside the callback, at run time
            last = str(error).strip().splitlines()[-1]
            checks.fail(f"jax.jit(ranks) on an input of shape {shape} failed while the host function ran "
                        f"({last[:160]}). The result declared to pure_callback must follow the input's "
                        f"shape, whatever it is, not the shape of the examples you have seen.", "wrong-shape")
        checks.assert_shape_dtype(out, shape, jnp.int32, what=f"jax.jit(ranks) on shape {shape}")
        checks.assert_close(out, _ranks(x), what=f"jax.jit(ranks) on shape {shape}")
