"""Checks for static-6 (predict_static_compiles): run here, on this file's own copy of the program."""

from functools import partial

import jax
import jax.numpy as jnp

from grader import checks

DOCS = f"See {checks.DOCS}/jit-compilation.html#marking-arguments-as-static"


@partial(jax.jit, static_argnames="n")
def power(x, n):
    return x ** n


def calls():
    """The calls, in order: run them with `for call in calls(): call()`."""
    x3, x4 = jnp.ones(3), jnp.ones(4)
    return [
        lambda: power(x3, 2),  # call 1
        lambda: power(x3, 3),  # call 2
        lambda: power(x3, 2),  # call 3
        lambda: power(x3, n=2),  # call 4
        lambda: power(x3, 2.0),  # call 5
        lambda: power(x4, 2),  # call 6
        lambda: power(x3, n=3),  # call 7
        lambda: power(x3, n=2),  # call 8
        lambda: power(x4, 3),  # call 9
    ]


@partial(jax.jit, static_argnames="n")
def power_static(x, n):
    return x ** n


@jax.jit
def power_traced(x, n):
    return x ** n


def ten_calls(fn):
    x = jnp.ones(3)
    for i in range(10):
        fn(x, i % 3)


_COMPILED: dict[str, object] = {}


def _observed():
    """What compiled, counted once per process: jit's caches remember every earlier call."""
    if not _COMPILED:
        programs = []
        for call in calls():
            with checks.count_compiles("power") as log:
                call()
            programs.append(log.count)
        _COMPILED["calls"] = {number for number, count in enumerate(programs, start=1) if count}
        for fn in (power_static, power_traced):
            with checks.count_compiles(fn.__name__) as log:
                ten_calls(fn)
            _COMPILED[fn.__name__] = log.count
    return _COMPILED


# What jit's cache sees in each call, beside what it saw before.
CALLS_SEEN = {1: "the first call", 2: "a new value of n", 3: "x and n exactly as in call 1",
              4: "n=2 by keyword, where call 1 passed it by position: another key",
              5: "the float 2.0: a static value's type is part of the key, though 2.0 == 2",
              6: "a new shape of x", 7: "n=3 by keyword, not seen that way before", 8: "exactly call 4 again",
              9: "x4 with a positional 3: each seen before, but never together"}


def test_which_calls_compile(predictions):
    with checks.judging(predictions) as judge:
        guess = judge.guess("COMPILING_CALLS", what="which calls compile power")
        actual = _observed()["calls"]
        named = guess if isinstance(guess, set) else set()
        why = "; ".join(f"call {n} {'compiles' if n in actual else 'does not'}: {CALLS_SEEN[n]}"
                        for n in sorted(named ^ actual, key=str) if n in CALLS_SEEN)
        why = why or "jit keys its cache on the shapes and dtypes of x and on n exactly as Python passed it"
        judge.compare(guess, actual, name="COMPILING_CALLS", what="the calls that compile power",
                      form=checks.forms.CALL_NUMBERS, why=f"{why}. {DOCS}")


def test_how_many_compiles_ten_calls_cause(predictions):
    with checks.judging(predictions) as judge:
        guesses = {name: judge.guess(name, what=f"the compiles of ten_calls({fn})")
                   for name, fn in (("COMPILES_STATIC", "power_static"), ("COMPILES_TRACED", "power_traced"))}
        seen = _observed()
        for name, fn, why in [
            ("COMPILES_STATIC", power_static, "n is static: each value of i % 3 (0, 1, 2) is its own program, "
                                              "and the later calls find theirs in the cache."),
            ("COMPILES_TRACED", power_traced, "n is traced: it reaches one program as data (a weak int32 "
                                              "scalar), whatever its value."),
        ]:
            judge.compare(guesses[name], seen[fn.__name__], name=name, form=checks.forms.COUNT,
                          what=f"how many compiles ten_calls({fn.__name__}) causes", why=f"{why} {DOCS}")
