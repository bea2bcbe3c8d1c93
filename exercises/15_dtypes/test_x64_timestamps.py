"""Checks for dtype-4 (x64_timestamps)."""

import re

import jax
import jax.extend
import jax.numpy as jnp
import numpy as np
import pytest

from grader import checks

DOCS = f"See {checks.DOCS}/default_dtypes.html"
SETTINGS = ("jax_enable_x64", "jax_explicit_x64_dtypes")
# Nanoseconds since 1970 (late 2023 to 2024), about 2**60. Some sit one nanosecond either
# side of a millisecond boundary, where float64's spacing (256 ns here) rounds the wrong way.
NS = np.array([1_700_000_000_000_999_999, 1_700_000_000_001_000_000, 1_700_000_000_001_000_001,
               1_712_345_678_901_234_567, 1_699_999_999_999_999_999], np.int64)


@pytest.fixture(autouse=True)
def _restore_64_bit_settings():
    """Whatever the code under test does to the 64-bit settings, later checks start from these."""
    before = {name: getattr(jax.config, name) for name in SETTINGS}
    yield
    for name, value in before.items():
        jax.config.update(name, value)


def _all_eqns(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _all_eqns(getattr(sub, "jaxpr", sub))


def _check_result(out, ns, what, exercise):
    if not isinstance(out, jax.Array):
        checks.fail(f"{what} returned a {type(out).__name__}, not a JAX array: the conversion must be "
                    f"computed by JAX, not by NumPy or Python on the host. {DOCS}", "host-transfer")
    checks.assert_shape_dtype(out, ns.shape, np.int64, what=what,
                              hint="With jax_enable_x64 off, JAX makes every int64 request int32 (and "
                                   "wraps the values past 2**31 on the way in). Turn 64-bit types on for "
                                   "this computation.")
    want = ns // 1_000_000
    if not np.array_equal(np.asarray(out), want):
        checks.assert_close(np.asarray(out), want, rtol=0, atol=0.5, what=what, hint=_why_wrong(exercise))


def _why_wrong(exercise):
    """What the program as called did to the timestamps on their way to the wrong milliseconds."""
    program = checks.program_of(lambda: exercise.to_milliseconds(NS), what="to_milliseconds(ns)")
    top = program.jaxpr.jaxpr
    values = [*top.constvars, *top.invars, *(v for eqn in _all_eqns(top) for v in eqn.outvars)]
    dtypes = {jnp.dtype(v.aval.dtype) for v in values if getattr(v.aval, "shape", None) == NS.shape}
    floats = sorted(d.name for d in dtypes if jnp.issubdtype(d, jnp.floating))
    if floats:
        return (f"The program computes in {floats[0]}: floor division of integers is exact, but a detour "
                f"through float32 (exact to 2**24) or float64 (exact to 2**53) rounds timestamps of about "
                f"2**60 nanoseconds, and a floor after that rounding lands in the wrong millisecond.")
    if jnp.dtype(jnp.int32) in dtypes:
        return ("No floating point is involved: the timestamps entered JAX as int32, cut to 32 bits (the "
                "values past 2**31 wrapped) because they were converted before 64-bit types were on; "
                "widening them to int64 afterwards cannot bring the lost bits back. Convert them inside "
                "the computation that has 64-bit types on.")
    return "Floor division of the int64 timestamps by 1_000_000 gives the milliseconds exactly."


def test_exact_int64_milliseconds(exercise):
    _check_result(exercise.to_milliseconds(NS), NS, "to_milliseconds(ns)", exercise)


def _assert_follows_the_timestamps(program):
    """Run with 64-bit types on (where the timestamps keep their values as a constant of the program)."""
    # Nudged (each timestamp one nanosecond later), the result must be the nudged timestamps' milliseconds:
    # a host result plus a term that is zero on the data moves too, but not as the division does.
    follows = program.follows_constants(lambda const: const.shape == NS.shape and np.array_equal(const, NS),
                                        expected=lambda nudged: [nudged[0] // 1_000_000])
    if not follows:
        found = "never holds the timestamps" if follows is None else "does not follow the timestamps it holds"
        checks.fail(f"to_milliseconds(ns)'s program {found}: its result comes from numbers the host "
                    "computed from ns before JAX saw them (ns // ..., np.floor_divide on the NumPy array), "
                    "and moving the timestamps JAX was handed does not move it. The task asks for the "
                    f"division computed by JAX, on the timestamps as a JAX array. {DOCS}", "host-transfer")


def _assert_divides_in_jax(program):
    if not program.live("div"):
        found = ("computes a division but throws it away" if program.has("div") else "holds no division")
        checks.fail(f"to_milliseconds(ns)'s program {found}: the result reaches JAX already divided. An "
                    "operator applied to the NumPy array itself (ns // ..., np.floor_divide) runs in NumPy "
                    "on the host, before any conversion; JAX then only copies the answer. "
                    f"The task asks for the division computed by JAX, on a JAX array. {DOCS}", "host-transfer")


def test_integer_arithmetic_in_64_bits(exercise):
    # Traced as it is called, with the NumPy timestamps closed over: JAX records every operation it
    # performs on them, while NumPy arithmetic done before JAX sees the data leaves only a constant.
    as_called = checks.program_of(lambda: exercise.to_milliseconds(NS), what="to_milliseconds(ns)")
    checks.assert_no_callbacks(as_called, what="to_milliseconds(ns)")
    _assert_divides_in_jax(as_called)
    # With 64-bit types on, the program of the very call the task describes (a NumPy array in):
    # tracing with an abstract input instead would reject an answer that reads its NumPy input on
    # the host before handing it to JAX, which the task allows. That program is run too (after the
    # lesson for a floating-point detour): it must compute the milliseconds.
    with jax.enable_x64(True):
        program = checks.program_of(lambda: exercise.to_milliseconds(NS), what="to_milliseconds(ns)")
        for eqn in _all_eqns(program.jaxpr.jaxpr):
            for var in eqn.outvars:
                dtype = var.aval.dtype
                if jnp.issubdtype(dtype, jnp.floating):
                    converts = eqn.primitive.name == "convert_element_type"
                    step = (f"converts the integers to {dtype.name}" if converts
                            else f"computes `{eqn.primitive.name}` in {dtype.name}")
                    checks.fail(f"to_milliseconds' program {step}: "
                                f"the integers take a detour through floating point, exact only up to "
                                f"2**{24 if dtype.itemsize == 4 else 53}, while these timestamps are about "
                                f"2**60. Stay in int64: integer floor division is exact. {DOCS}", "precision")
        checks.assert_computes(program, NS // 1_000_000, what="to_milliseconds(ns)", rtol=0, atol=0)
        _assert_divides_in_jax(program)
        _assert_follows_the_timestamps(program)
        hlo = jax.jit(jax.extend.core.jaxpr_as_fun(program.jaxpr)).lower().as_text()  # that same program
    result = re.search(r"func\.func public @main\(.*?\) -> \((tensor<[^>]*>)", hlo)
    if result is None or "xi64>" not in result.group(1):
        shown = result.group(1) if result else "no tensor"
        checks.fail(f"with 64-bit types on, to_milliseconds lowers to an HLO program returning {shown}; "
                    f"expected tensor<{NS.size}xi64>: the result must stay a 64-bit integer. {DOCS}",
                    "precision")


def test_works_whatever_the_setting_and_leaves_it_as_found(exercise):
    for enabled in (False, True):
        jax.config.update("jax_enable_x64", enabled)  # the caller's setting (restored after the check)
        before = checks.every_setting()  # every JAX setting, where the exercise runs
        out = exercise.to_milliseconds(NS)
        after = checks.read_setting("jax_enable_x64")
        if after != enabled:
            checks.fail(f"to_milliseconds(ns), called with jax_enable_x64={enabled}, left it {after}. A "
                        f"function that needs 64-bit types must not change them for the rest of the "
                        f"program (every later array, and every jit cache key, would follow): turn them on "
                        f"for this computation only, with the context manager that restores the caller's "
                        f"setting. {DOCS}", "global-setting")
        changed = checks.changed_settings(before, checks.every_setting())
        if changed:
            checks.fail(f"to_milliseconds(ns), called with jax_enable_x64={enabled}, left other JAX "
                        f"settings changed: {'; '.join(changed)}. Settings are "
                        f"global: every later call in the program (its dtypes, its jit cache keys) would "
                        f"follow a choice the caller never made. Everything this computation needs belongs "
                        f"inside one `with jax.enable_x64(True):` block, which restores the caller's "
                        f"setting on the way out. {DOCS}", "global-setting")
        _check_result(out, NS, f"to_milliseconds(ns) called with jax_enable_x64={enabled}", exercise)
