"""Checks for static-7 (predict_hashable_static): run here, on this file's own copy of the program."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp

from grader import checks

DOCS = f"See {checks.DOCS}/jit-compilation.html#marking-arguments-as-static"


@dataclasses.dataclass(frozen=True)
class Frozen:
    scale: float


class Plain:
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnums=1)
def apply(x, config):
    scale = config[0] if isinstance(config, (tuple, list)) else config.scale
    return x * scale


def calls():
    """The calls, in order: run them with `for call in calls(): call()`."""
    x = jnp.ones(3)
    plain = Plain(2.0)
    return [
        lambda: apply(x, Frozen(2.0)),  # call 1
        lambda: apply(x, Frozen(2.0)),  # call 2
        lambda: apply(x, Frozen(3.0)),  # call 3
        lambda: apply(x, plain),  # call 4
        lambda: apply(x, plain),  # call 5
        lambda: apply(x, Plain(2.0)),  # call 6
        lambda: apply(x, (2.0,)),  # call 7
        lambda: apply(x, [2.0]),  # call 8
    ]


# What each call hands jit's cache, beside what it saw before.
CALLS_SEEN = {1: "the first call", 2: "a Frozen equal to call 1's: same hash, ==, one key",
              3: "a Frozen with another field value", 4: "a Plain object: hashed and compared by identity",
              5: "the very same Plain object as call 4", 6: "a new Plain object: another identity, so another "
              "key, though its field is the same", 7: "a tuple, compared by its items: new",
              8: "a list: it cannot be hashed, so jit raises before anything runs"}
_SEEN: dict[str, object] = {}


def _observed():
    """Which calls compiled and which raised, once per process: jit's cache remembers earlier calls."""
    if not _SEEN:
        compiled, raised = set(), set()
        for number, call in enumerate(calls(), start=1):
            with checks.count_compiles("apply") as log:
                try:
                    call()
                except ValueError:
                    raised.add(number)
            if log.count:
                compiled.add(number)
        _SEEN.update(compiled=compiled, raised=raised)
    return _SEEN


def _why(wrong, actual):
    said = "; ".join(f"call {n} {'compiles' if n in actual else 'does not'}: {CALLS_SEEN[n]}"
                     for n in sorted(wrong, key=str) if n in CALLS_SEEN)
    return f"{said or 'jit finds a static argument by its hash and =='}. {DOCS}"


def test_which_calls_compile(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("COMPILING_CALLS", what="which calls compile apply")
        actual = _observed()["compiled"]
        named = guess if isinstance(guess, set) else set()
        judge.compare(guess, actual, name="COMPILING_CALLS", what="the calls that compile apply",
                      form=checks.forms.CALL_NUMBERS, why=_why(named ^ actual, actual))


def test_which_call_raises(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("RAISING_CALL", what="which call raises")
        raised = _observed()["raised"]
        actual = min(raised) if raised else None
        judge.compare(guess, actual, name="RAISING_CALL", what="the call that raises", form=checks.forms.CALL_NUMBER,
                      why=f"call {actual}: {CALLS_SEEN.get(actual, 'raised')}. A static argument must be hashable: "
                          f"jit keys its cache on it. {DOCS}")
