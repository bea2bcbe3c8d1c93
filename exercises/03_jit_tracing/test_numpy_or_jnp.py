"""Checks for jit-6 (numpy_or_jnp)."""

import jax
import numpy as np

from grader import checks

X = np.linspace(-2.0, 2.0, 9, dtype=np.float32)


def _blocks(shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape)


def test_damped_wave_under_jit(exercise):
    checks.assert_jitted(exercise.damped_wave, X, what="damped_wave")
    out = exercise.damped_wave(X)
    if not isinstance(out, jax.Array):
        checks.fail(f"damped_wave returned a {type(out).__name__}, not a jax.Array: NumPy ran on the "
                    f"values and pulled them to the host. Use jnp.sin, which stays in the program.")
    checks.assert_close(out, np.sin(3 * X) * np.exp(-X ** 2), rtol=1e-5, atol=1e-6, what="damped_wave(x)")


def test_as_matrix_under_jit(exercise):
    try:
        checks.assert_jitted(exercise.as_matrix, _blocks((2, 3, 4)), what="as_matrix")
    except TypeError as error:
        if "concrete" not in str(error):
            raise
        checks.fail(f"as_matrix cannot be traced: reshape got a traced size "
                    f"({str(error).splitlines()[0]}). Sizes must be known when the program is built: "
                    f"compute them from x.shape with Python or NumPy (np.prod), not jnp, which turns "
                    f"them into tracers. See {checks.DOCS}/jit-compilation.html")
    for shape, merged in [((2, 3, 4), (6, 4)), ((4, 1, 5, 2), (4, 10))]:
        x = _blocks(shape)
        checks.assert_close(exercise.as_matrix(x), x.reshape(merged),
                            what=f"as_matrix(x of shape {shape})",
                            hint="Rows are the first two axes (x.shape[0] * x.shape[1], computed "
                                 "in Python or with np.prod); -1 folds the rest into columns.")
