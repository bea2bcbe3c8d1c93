"""Checks for jit-11 (predict_retracing): the calls run here, on this file's own copy of the program."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/jit-compilation.html"
TRACES = []  # one entry per run of scale's Python body: the types it saw


@jax.jit
def scale(x, factor):
    TRACES.append((str(jax.typeof(x)), str(jax.typeof(factor))))
    return x * factor


def calls():
    """The calls, in order: run them with `for call in calls(): call()`."""
    x3, x4 = jnp.ones(3), jnp.ones(4)
    return [
        lambda: scale(x3, 2.0),  # call 1
        lambda: scale(x3, 3.0),  # call 2
        lambda: scale(x3, 2),  # call 3
        lambda: scale(x4, 2.0),  # call 4
        lambda: scale(x3, jnp.float32(2.0)),  # call 5
        lambda: scale(x3, np.float32(7.0)),  # call 6
        lambda: scale(x3, factor=2.0),  # call 7
        lambda: scale(x3, factor=5.0),  # call 8
        lambda: scale(x3.astype(jnp.bfloat16), 2.0),  # call 9
    ]


_SEEN: dict[int, tuple[str, str] | None] = {}


def _observed():
    """Call number -> the types scale's body saw when that call traced it (None: no trace). Run once."""
    if not _SEEN:
        for number, call in enumerate(calls(), start=1):
            before = len(TRACES)
            call()
            _SEEN[number] = TRACES[before] if len(TRACES) > before else None
    return _SEEN


def _reasons(seen, wrong):
    """Why the calls in `wrong` did (or did not) trace."""
    first_with: dict[tuple[str, str], int] = {}
    reasons, reused = [], []
    for number, types in seen.items():
        if types is None:
            reused += [str(number)] if number in wrong else []
            continue
        earlier = first_with.setdefault(types, number)
        if number in wrong:
            reasons.append(f"call {number} traced: its body saw x: {types[0]}, factor: {types[1]}, "
                           + (f"the types of call {earlier}, but passed another way (by keyword)"
                              if earlier != number else "a signature no earlier call had"))
    if reused:
        reasons.append(f"call{'s' * (len(reused) > 1)} {', '.join(reused)} did not: each matches an earlier "
                       f"call's shapes, dtypes, weak types and way of passing, and a new value is not a new "
                       f"signature")
    return "; ".join(reasons)


def test_which_calls_trace(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("TRACED_CALLS", what="which calls run scale's Python body")
        seen = _observed()
        actual = {number for number, types in seen.items() if types is not None}
        named = guess if isinstance(guess, set) else set()
        why = _reasons(seen, named ^ actual) or "Each call that traces is listed once."
        judge.compare(guess, actual, name="TRACED_CALLS", what="the calls that run scale's Python body",
                      form=checks.forms.CALL_NUMBERS, why=f"{why}. {DOCS}")


def test_the_type_the_body_sees(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("FACTOR_TYPE_IN_CALL_3", what="the type of factor in call 3")
        actual = _observed()[3][1]
        judge.compare(guess, actual, name="FACTOR_TYPE_IN_CALL_3", what="the type scale's body sees for factor in "
                      "call 3", form=checks.forms.TYPE_STRING,
                      why=f"The 2 of call 3 is a Python int: JAX gives it its default integer type, int32, and marks "
                          f"it weak (~): it will take the other operand's dtype in x * factor. {DOCS}")
