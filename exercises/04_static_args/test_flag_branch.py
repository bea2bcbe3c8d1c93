"""Checks for static-1 (flag_branch)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([1.5, -2.0, 0.25], dtype=np.float32)


def _call(exercise, x, *args, **kwargs):
    """apply_sign(x, ...), with the two classic tracing mistakes explained rather than thrown."""
    try:
        return exercise.apply_sign(x, *args, **kwargs)
    except jax.errors.TracerBoolConversionError:
        checks.fail("apply_sign cannot be traced (TracerBoolConversionError): `if neg:` asks the flag for "
                    "True or False, but under jit every argument is a tracer with no value while the "
                    "function is traced. An argument whose value picks the code path must reach Python "
                    "as its real value: jit can be told to pass that one argument through as it is, and "
                    f"then compiles one program per value. See {checks.DOCS}/jit-compilation.html",
                    "traced-value")
    except ValueError as error:
        if "Non-hashable static arguments" not in str(error):
            raise
        which = "x (argument 0, the array)" if "Array" in str(error) or "ndarray" in str(error) else \
            "an argument that cannot be hashed"
        checks.fail(f"apply_sign marks {which} static. Static arguments are cache keys, so they must be "
                    f"hashable Python values, and arrays are not: arrays are what jit traces, as data. "
                    f"Only the argument whose value picks the code path belongs among the static ones. "
                    f"See {checks.DOCS}/jit-compilation.html#marking-arguments-as-static", "static-argument")


def test_negates_only_when_flag_is_set(exercise):
    x = jnp.asarray(X)
    checks.assert_close(_call(exercise, x, True), -X, what="apply_sign(x, True)")
    checks.assert_close(_call(exercise, x, False), X, what="apply_sign(x, False)")
    checks.assert_close(_call(exercise, x, neg=True), -X, what="apply_sign(x, neg=True)")


def test_is_compiled_with_jit(exercise):
    x = jnp.asarray(X)
    for neg in (True, False):
        _call(exercise, x, neg)
        checks.assert_jitted(lambda v: exercise.apply_sign(v, neg), x, what=f"apply_sign(x, {neg})",
                             entirely=True, expected=-X if neg else X)


def test_compiles_each_flag_value_at_most_once(exercise):
    x = jnp.asarray(X)
    with checks.count_compiles() as first:
        for neg in (True, False):
            _call(exercise, x, neg)
    checks.assert_compiles(first, what="apply_sign()", calls="the first calls with neg=True and neg=False",
                           at_most=2, why="A new flag value should cost at most one program")
    with checks.count_compiles() as repeats:
        for neg in (True, False, True, False, True, False):
            _call(exercise, x, neg)
    checks.assert_compiles(
        repeats, what="apply_sign()", calls="6 more calls with flag values it has already seen",
        expected=0, warm_up=first,
        why="jit caches one program per static value, so a repeated flag must reuse it. Something "
            "defeats the cache: a jax.jit or lambda created inside the call is a new function, with an "
            "empty cache, every time. The module-level function must be jitted once")
