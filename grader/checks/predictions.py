"""Predict katas: the learner writes down what JAX will do; the check runs the program and compares.

A predict kata's stub shows a small program and leaves each prediction as
`NAME = ...`. Its checks build the same program themselves, observe what JAX
actually does (a type, a dtype, a collective in the compiled HLO, a count of
compiles or of stored residuals), and judge the prediction against that, never
against a written-down answer that could drift from JAX. A wrong prediction is
answered with the real outcome and why.

Predictions are plain Python values, and an answer may spell a right one in
any of its usual ways: `same_type` (jax.typeof strings, short dtype names),
`same_dtype`, `same_collective` (HLO or jax.lax names), `same_set`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from grader.checks.core import fail


def predicted(exercise: Any, name: str, *, what: str) -> Any:
    """The prediction `exercise.<name>`; one still `...` is not done yet (a TODO)."""
    __tracebackhide__ = True
    value = getattr(exercise, name)
    if value is Ellipsis:
        raise NotImplementedError(f"TODO: predict {what}: replace the ... of {name} with your prediction")
    return value


def assert_predicted(guess: Any, actual: Any, *, name: str, what: str, why: str,
                     same: Callable[[Any, Any], bool] | None = None, shown: Callable[[Any], str] = repr) -> None:
    """The prediction `guess` is what JAX did (`actual`); otherwise fail with the real outcome and why.

    Args:
      name: the prediction's name in the exercise (COMPILES).
      what: what was predicted, as a phrase ("how many of the ten calls compile").
      why: the mechanism behind the real outcome, for this program.
      same: when a prediction counts as right (default ==); spellings are the kata's to allow.
    """
    __tracebackhide__ = True
    try:
        right = same(guess, actual) if same is not None else guess == actual
    except (TypeError, ValueError):
        right = False  # a prediction of the wrong kind (a string for a number) is a wrong prediction
    if not right:
        fail(f"{name}: you predicted {shown(guess)} for {what}; JAX gives {shown(actual)}. {why}",
             "wrong-prediction")


# --- spellings of one answer ---------------------------------------------------------------------------

_SHORT_DTYPES = {"f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16", "i64": "int64",
                 "i32": "int32", "i16": "int16", "i8": "int8", "u64": "uint64", "u32": "uint32", "u16": "uint16",
                 "u8": "uint8", "c64": "complex64", "c128": "complex128", "pred": "bool"}


def _dtype_name(spelling: Any) -> str:
    """"bf16", "bfloat16", jnp.bfloat16, np.dtype("bfloat16") -> "bfloat16"."""
    import numpy as np

    if isinstance(spelling, str):
        word = spelling.strip().lower().removeprefix("jnp.").removeprefix("np.").removeprefix("jax.numpy.")
        word = word.removeprefix("numpy.")
        word = _SHORT_DTYPES.get(word, word)
        try:
            import jax.numpy as jnp

            return jnp.dtype(word).name
        except TypeError:
            return word
    try:
        import jax.numpy as jnp

        return jnp.dtype(spelling).name
    except TypeError:
        return str(np.asarray(spelling).dtype) if spelling is not None else "None"


def same_dtype(guess: Any, actual: Any) -> bool:
    """Whether two spellings name one dtype ("f32", "float32", jnp.float32, np.dtype("float32"))."""
    return _dtype_name(guess) == _dtype_name(actual)


def type_string(spelling: str) -> str:
    """A jax.typeof string as written by JAX: "f32[16@data, 4]" -> "float32[16@data,4]"."""
    text = "".join(str(spelling).split())
    match = re.fullmatch(r"(~?)([A-Za-z0-9_]+)(\[.*\])?(\{.*\})?", text)
    if not match:
        return text
    weak, dtype, dims, rest = match.groups()
    dtype = _SHORT_DTYPES.get(dtype.lower(), dtype.lower())
    return f"{weak}{dtype}{dims or '[]'}{rest or ''}"


def same_type(guess: Any, actual: Any) -> bool:
    """Whether two jax.typeof spellings name one type (spaces and short dtype names aside)."""
    return isinstance(guess, str) and type_string(guess) == type_string(str(actual))


_COLLECTIVES = {"allreduce": "all-reduce", "psum": "all-reduce", "pmean": "all-reduce", "allgather": "all-gather",
                "alltoall": "all-to-all", "collectivepermute": "collective-permute", "ppermute": "collective-permute",
                "reducescatter": "reduce-scatter", "psumscatter": "reduce-scatter"}
_NOTHING = ("", "none", "nothing", "no collective", "no-collective", "-")


def collective_name(spelling: Any) -> str | None:
    """"all_reduce", "AllReduce", "psum", "all-reduce" -> "all-reduce"; None, "none" -> None."""
    if spelling is None or (isinstance(spelling, str) and spelling.strip().lower() in _NOTHING):
        return None
    word = re.sub(r"[^a-z]", "", str(spelling).lower().removeprefix("lax.").removeprefix("jax.lax."))
    return _COLLECTIVES.get(word, str(spelling).strip().lower())


def same_collective(guess: Any, actual: Any) -> bool:
    """Whether two spellings name one collective (HLO's all-reduce, jax.lax's psum...), or both none."""
    return collective_name(guess) == collective_name(actual)


def same_set(guess: Any, actual: Iterable[Any]) -> bool:
    """Whether a list, tuple, set or range holds exactly these items, in any order."""
    if isinstance(guess, (str, bytes)) or not isinstance(guess, Iterable):
        return False
    items = list(guess)
    return len(items) == len(set(items)) and set(items) == set(actual)
