"""The forms a predict kata asks its predictions in, each with the spellings it refuses and why.

A predict kata's task names the form of every answer (a count, True or False,
a set of call numbers, a shape, a dtype's name, a jax.typeof string, an HLO
collective's name, a primitive's name). A prediction in another form is a
wrong prediction, and the message says what the form is and, where a nearby
vocabulary was used instead (jax.lax's `psum` for HLO's `all-reduce`, XLA's
`f32` for the dtype's name `float32`, `jnp.where` for the primitive
`select_n`), how the two differ: telling them apart is what the kata teaches.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Form:
    """What a prediction must be: `problem(guess)` says why a guess is not of this form ("" if it is);
    `key` turns a guess or JAX's outcome into what is compared; `show` writes either in a message."""

    described: str  # what the task asks for: "a Python int such as 3"
    problem: Callable[[Any], str]
    key: Callable[[Any], Any] = lambda value: value
    show: Callable[[Any], str] = repr


def written(value: Any) -> str:
    """A guess with its type, where the type is the point: "the float 3.0", "the list [1, 2]"."""
    kinds = {bool: "the bool", int: "the int", float: "the float", str: "the string", list: "the list",
             tuple: "the tuple", set: "the set", dict: "the dict", type(None): ""}
    kind = kinds.get(type(value), f"a {type(value).__name__}")
    return f"{kind} {value!r}".strip()


def _integer(example: str) -> Form:
    def problem(guess: Any) -> str:
        if isinstance(guess, int) and not isinstance(guess, bool):
            return ""
        return f"you wrote {written(guess)}, not a Python int"
    return Form(f"a Python int such as {example}", problem)


COUNT = _integer("3")
CALL_NUMBER = COUNT
INTEGER = _integer("-7")


def _flag(guess: Any) -> str:
    return "" if isinstance(guess, bool) else f"you wrote {written(guess)}, not True or False"


FLAG = Form("True or False", _flag)


def set_of(item: Form, example: str, empty: str = "") -> Form:
    """A set written with braces ({1, 2}), each member of the form `item`; `empty`: what set() means."""
    def problem(guess: Any) -> str:
        if not isinstance(guess, set):
            return f"you wrote {written(guess)}, not a set (in braces)"
        wrong = [item.problem(member) for member in guess]
        return "; ".join(sorted(w for w in wrong if w))

    def show(value: Any) -> str:
        if isinstance(value, (set, frozenset)):
            ordered = sorted(value, key=lambda v: (type(v).__name__, v if isinstance(v, (int, float)) else repr(v)))
            return "{" + ", ".join(repr(v) for v in ordered) + "}" if value else "set()"
        return repr(value)
    return Form(f"a set such as {example}" + (f" ({empty})" if empty else ""), problem,
                key=lambda value: frozenset(value) if isinstance(value, (set, frozenset)) else value, show=show)


CALL_NUMBERS = set_of(CALL_NUMBER, "{1, 2}", "set() for none")


def _shape(guess: Any) -> str:
    if isinstance(guess, tuple) and all(isinstance(d, int) and not isinstance(d, bool) for d in guess):
        return ""
    return f"you wrote {written(guess)}, not a tuple of ints, which is what .shape gives"


SHAPE = Form("a tuple of ints such as (7, 2)", _shape)

# XLA's short element types, as HLO text writes them; neither a dtype's name nor jax.typeof uses them.
HLO_ELEMENT_TYPES = {"pred": "bool", "s8": "int8", "s16": "int16", "s32": "int32", "s64": "int64", "u8": "uint8",
                     "u16": "uint16", "u32": "uint32", "u64": "uint64", "f16": "float16", "bf16": "bfloat16",
                     "f32": "float32", "f64": "float64", "c64": "complex64", "c128": "complex128",
                     "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64"}


def dtype_name(value: Any) -> Any:
    """A dtype (or anything with one) as its name, "float32"; a string stays as written."""
    if isinstance(value, str):
        return value
    import numpy as np

    try:
        return np.dtype(value).name
    except TypeError:
        return value


def _dtype_problem(guess: Any) -> str:
    if not isinstance(guess, str):
        return f"you wrote {written(guess)}: write the dtype's name as a string, such as \"int16\""
    word = guess.strip()
    if word.lower() in HLO_ELEMENT_TYPES:
        return (f"{word!r} is XLA's short element type, from compiled HLO text; a dtype's name is written out "
                f"in full, {HLO_ELEMENT_TYPES[word.lower()]!r}")
    if "." in word:
        return f"{word!r} names a module's attribute, not the dtype's name alone"
    return ""


DTYPE_NAME = Form("a dtype's name as .dtype.name gives it, such as \"int16\"", _dtype_problem, key=dtype_name,
                  show=lambda value: repr(dtype_name(value)))


def _type_problem(guess: Any) -> str:
    if not isinstance(guess, str):
        return f"you wrote {written(guess)}: write the jax.typeof string, in quotes"
    short = re.match(r"~?([a-z]+[0-9]*)\[", "".join(guess.split()))
    if short and short.group(1) in HLO_ELEMENT_TYPES and short.group(1) != "pred":
        return (f"jax.typeof never prints {short.group(1)!r}: that is XLA's short element type, from compiled "
                f"HLO text; jax.typeof writes the dtype's full name, {HLO_ELEMENT_TYPES[short.group(1)]!r}")
    if "[" not in guess:
        return "jax.typeof writes every array type with its brackets, a scalar's empty: float32[]"
    return ""


TYPE_STRING = Form("a jax.typeof string such as \"float32[2,3@data]\" (spaces aside)", _type_problem,
                   key=lambda value: "".join(value.split()) if isinstance(value, str) else value)

HLO_COLLECTIVES = ("all-reduce", "all-gather", "all-to-all", "collective-permute", "reduce-scatter")
# jax.lax's collectives (what a shard_map body calls) and the HLO collective each compiles to.
LAX_COLLECTIVES = {"psum": "all-reduce", "pmean": "all-reduce", "pmax": "all-reduce", "pmin": "all-reduce",
                   "all_gather": "all-gather", "all_to_all": "all-to-all", "ppermute": "collective-permute",
                   "psum_scatter": "reduce-scatter"}


def _collective_problem(guess: Any) -> str:
    if guess is None or guess in HLO_COLLECTIVES:
        return ""
    if not isinstance(guess, str):
        return f"you wrote {written(guess)}: write an HLO collective's name in quotes, or None"
    word = guess.strip().lower().removeprefix("jax.").removeprefix("lax.")
    if word in LAX_COLLECTIVES:
        return (f"{guess!r} is a jax.lax function, one a shard_map body calls; the compiled HLO names its "
                f"collectives itself (lax.{word} compiles to {LAX_COLLECTIVES[word]!r})")
    if word in ("none", "nothing", "no collective", ""):
        return f"you wrote the string {guess!r}: for no collective, write None, without quotes"
    hlo = {c.replace("-", ""): c for c in HLO_COLLECTIVES}.get(re.sub(r"[^a-z]", "", word))
    return f"the HLO writes this collective {hlo!r}, with a hyphen, in lower case" if hlo else ""


COLLECTIVE = Form("an HLO collective's name (" + ", ".join(f'"{c}"' for c in HLO_COLLECTIVES) + ") or None",
                  _collective_problem)
COLLECTIVES = set_of(Form("an HLO collective's name", lambda g: _collective_problem(g) if g is not None else
                          "None is not a collective: leave it out (set() for none)"),
                     "{\"all-to-all\"}", "set() for none")

# Functions whose names a learner may write for the primitive they record in a jaxpr.
FUNCTION_PRIMITIVES = {"where": "select_n", "select": "select_n", "switch": "cond", "fori_loop": "scan",
                       "while_loop": "while", "matmul": "dot_general", "dot": "dot_general"}


def _primitive_problem(guess: Any) -> str:
    if not isinstance(guess, str):
        return f"you wrote {written(guess)}: write a primitive's name in quotes, such as \"add\""
    word = guess.strip()
    bare = re.sub(r"^(jax\.)?(numpy\.|lax\.|jnp\.|np\.)", "", word)
    if bare in FUNCTION_PRIMITIVES:
        return (f"{guess!r} names a function, not a primitive: the jaxpr records what it compiles to "
                f"({bare} records {FUNCTION_PRIMITIVES[bare]!r})")
    if bare != word:
        return (f"{guess!r} names a function of a module; a jaxpr names each primitive alone, as it prints it "
                f"({bare!r})")
    return ""


PRIMITIVE = Form("a primitive's name as the jaxpr prints it, such as \"add\"", _primitive_problem)
PRIMITIVES = set_of(PRIMITIVE, "{\"exp\"}")
