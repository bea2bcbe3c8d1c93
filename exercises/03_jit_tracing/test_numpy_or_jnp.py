"""Checks for jit-6 (numpy_or_jnp)."""

import jax
import numpy as np

from grader import checks

X = np.linspace(-2.0, 2.0, 9, dtype=np.float32)
STATIC_ARRAY = ("marks its array argument x static, which cannot work: static arguments are hashed as "
                "cache keys and arrays are not hashable, and arrays are exactly what jit traces: their "
                "values arrive as tracers, whatever library you meant to use on them.")


def _blocks(shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape)


def _call(fn, name, x):
    try:
        return fn(x)
    except jax.errors.TracerArrayConversionError:
        checks.fail(f"{name} hands a traced value to NumPy (TracerArrayConversionError): under jit x is a "
                    f"tracer, with a shape and a dtype but no numbers, and a NumPy function needs the "
                    f"numbers. jax.numpy has the same functions and works on tracers, inside the program. "
                    f"See {checks.DOCS}/errors.html#jax.errors.TracerArrayConversionError", "numpy-on-tracer")
    except ValueError as error:
        if "Non-hashable static arguments" not in str(error):
            raise
        checks.fail(f"{name} {STATIC_ARRAY} See {checks.DOCS}/jit-compilation.html", "static-argument")


def test_damped_wave_under_jit(exercise):
    _call(exercise.damped_wave, "damped_wave", X)
    checks.assert_jitted(exercise.damped_wave, X, what="damped_wave", entirely=True,
                         expected=np.sin(3 * X) * np.exp(-X ** 2))
    out = exercise.damped_wave(X)
    if not isinstance(out, jax.Array):
        checks.fail(f"damped_wave returned a {type(out).__name__}, not a jax.Array: NumPy ran on the "
                    f"values and pulled them to the host. The value computation belongs to jax.numpy, "
                    f"which stays in the program.", "host-transfer")
    checks.assert_close(out, np.sin(3 * X) * np.exp(-X ** 2), rtol=1e-5, atol=1e-6, what="damped_wave(x)")


def _traced_size_lesson(error):
    checks.fail(f"as_matrix cannot be traced: its new size is a traced value "
                f"({type(error).__name__}: {str(error).splitlines()[0]}). Sizes must be known when the "
                f"program is built, and x.shape holds plain Python ints even under jit; jnp turns them "
                f"into traced values, which no shape (and no int()) can use. Do shape arithmetic with "
                f"Python or NumPy. See {checks.DOCS}/jit-compilation.html", "traced-value")


def test_as_matrix_under_jit(exercise):
    x = _blocks((2, 3, 4))
    try:
        _call(exercise.as_matrix, "as_matrix", x)
        jax.make_jaxpr(exercise.as_matrix)(x)  # under jit even when as_matrix itself is not jitted
    except jax.errors.ConcretizationTypeError as error:
        _traced_size_lesson(error)
    except TypeError as error:
        if "concrete" not in str(error):
            raise
        _traced_size_lesson(error)
    checks.assert_jitted(exercise.as_matrix, x, what="as_matrix", entirely=True, expected=x.reshape(6, 4))
    # Tracing alone computes nothing: jnp shape arithmetic forced through at trace time (under
    # jax.ensure_compile_time_eval) still runs, and compiles, op by op. A shape not seen before.
    fresh = _blocks((5, 3, 2))
    with checks.count_compiles() as log:
        jax.make_jaxpr(exercise.as_matrix)(fresh)
    if log.names or log.eager:
        checks.fail(f"tracing as_matrix on a new shape compiled {len(log.names + log.eager)} program(s) "
                    f"({', '.join(sorted(set(log.names + log.eager)))}): its shape arithmetic still runs jnp "
                    f"operations on the device while the program is built. Sizes are Python ints: do the "
                    f"arithmetic with Python or NumPy. See {checks.DOCS}/jit-compilation.html", "wrong-tool")
    for shape, merged in [((2, 3, 4), (6, 4)), ((4, 1, 5, 2), (4, 10))]:
        x = _blocks(shape)
        checks.assert_close(exercise.as_matrix(x), x.reshape(merged),
                            what=f"as_matrix(x of shape {shape})",
                            hint="Rows are the first two axes together (x.shape[0] * x.shape[1]); all "
                                 "the other axes fold into the columns.")
