"""PRNG keys: each key feeds one draw, each draw gets a key of its own, and keys come from the key given.

Statistics can be fooled (a rolled copy of one draw is as uncorrelated as a
second draw), so these helpers read the mechanism in the program first: which
keys each draw consumed, how many random values were drawn, and what each key
was derived from.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

import jax
import jax.extend
import numpy as np

from grader.checks.core import DOCS, KataFailure, fail, sentence
from grader.checks.programs import Program, weighed

RANDOM_DOCS = f"{DOCS}/random-numbers.html"


@contextlib.contextmanager
def no_key_reuse(what: str) -> Iterator[None]:
    """Run the block with JAX's key-reuse checker on; a reuse fails with a lesson.

    Only typed keys (`jax.random.key`) are tracked at run time; legacy `PRNGKey`
    arrays and key data unwrapped with `jax.random.key_data` are not. Use
    `assert_keys_used_once` on the program for those.
    """
    from jax.errors import KeyReuseError

    with jax.debug_key_reuse(True):
        try:
            yield
        except KeyReuseError as error:
            first = str(error).splitlines()[0]
            raise KataFailure(
                f"{what} used the same PRNG key twice ({first}). A key is consumed by one draw: "
                f"every draw needs a key of its own, derived from the one you were given. "
                f"See {RANDOM_DOCS}", "key-reuse") from error


# --- which keys the program consumes, seen through jax.random.key_data -------------------------


@contextlib.contextmanager
def _raw_keys_followed() -> Iterator[Any]:
    """JAX's static key-reuse analysis, with `key_data` (unwrap), `wrap_key_data` and
    `jax.random.clone` passing the key through: raw bits taken from a key, or a clone of it, are that
    key, and drawing from them twice is drawing twice (JAX treats a clone as a fresh key on purpose:
    it is how code says "this reuse is meant", which a task that forbids reuse does not allow).

    The program's own key assertions (`key_reuse.assert_consumed`) are not judged here: one that
    fails would stop the analysis, as if the program's shape were not covered.

    JAX's analysis tracks typed keys only; the table it reads is changed for the block, and its
    cache is emptied on the way in and out so no other analysis sees the changed rules. It runs in
    the examiner, which runs no submission code.
    """
    from jax.experimental.key_reuse import _core as reuse

    table, prng = reuse.key_reuse_signatures, reuse.prng
    followed = (prng.random_unwrap_p, prng.random_wrap_p, reuse.random.random_clone_p)
    saved, saved_check = [table[p] for p in followed], reuse._check_consumed_value
    for primitive in followed:
        table[primitive] = reuse.KeyReuseSignature(reuse.Forward(0, 0))
    reuse._check_consumed_value = lambda eqn, consumed: None
    reuse.jaxpr_type_signature.cache_clear()
    try:
        yield reuse
    finally:
        for primitive, signature in zip(followed, saved):
            table[primitive] = signature
        reuse._check_consumed_value = saved_check
        reuse.jaxpr_type_signature.cache_clear()


def assert_keys_used_once(program: Program, *, what: str, keep: tuple[int, ...] = (), hint: str = "") -> None:
    """No key in the program feeds two draws or splits, raw key data included; inputs in `keep`
    (flat argument indices) are not consumed at all (a base key the caller passes again and again).

    JAX's run-time checker follows typed keys only, and takes a clone for a fresh key:
    `jax.random.key_data(key)` hands out raw bits it no longer watches and `jax.random.clone(key)` a
    copy it does not tie to the key, so two draws from those pass it. This reads the program instead.
    """
    __tracebackhide__ = True
    jaxpr = getattr(program.jaxpr, "jaxpr", program.jaxpr)
    with _raw_keys_followed() as reuse:
        try:
            signature = reuse.jaxpr_type_signature(jaxpr)
        except reuse.KeyReuseError:
            fail(sentence(f"{what} uses one PRNG key for two draws or splits (seen in its program; "
                          f"raw key bits from jax.random.key_data and copies from jax.random.clone are "
                          f"that same key), and the same key gives the same numbers. Every draw needs a key of its own, derived from the one "
                          f"you were given.", hint, f"See {RANDOM_DOCS}"), "key-reuse")
        except AssertionError:
            return  # a program shape JAX's analysis does not cover: the run-time checker still ran
    made = _keys_made_from_bits(jaxpr)
    if made:
        fail(sentence(f"{what} makes a key from raw key bits changed by arithmetic ({made} before "
                      f"jax.random.wrap_key_data): a key whose bits are another key's plus a number is no new "
                      f"key derived from the one given, and neighbouring seeds or steps then share draws. "
                      f"Derive keys with jax.random.split or jax.random.fold_in.", hint, f"See {RANDOM_DOCS}"),
             "key-reuse")
    consumed = sorted(sink.idx for sink in signature.sinks if sink.idx in keep and _any(sink.mask))
    if consumed:
        fail(sentence(f"{what} consumes the base key it was given (argument {consumed[0]}): it draws "
                      f"from it or splits it (or a copy of it: jax.random.clone), so the caller's next call, with the same base key, "
                      f"reuses a spent key. Derive new keys without spending it (fold_in does not "
                      f"consume its key).", hint, f"See {RANDOM_DOCS}"), "key-reuse")


# What may stand between raw key bits and random_wrap: moves and casts of the bits, not arithmetic on them.
_MOVES = frozenset({"random_unwrap", "reshape", "broadcast_in_dim", "squeeze", "expand_dims", "slice",
                    "dynamic_slice", "gather", "concatenate", "transpose", "convert_element_type", "copy", "copy_p"})


# Where a key's bits may come from: JAX's own derivations (raw legacy keys go through them too).
_DERIVES = frozenset({"random_split", "random_fold_in", "random_seed"})


def _keys_made_from_bits(jaxpr: Any) -> str:
    """The arithmetic (a primitive's name) that some random_wrap's bits went through, at any call depth;
    empty if every key wrapped is bits moved as they are (or a program input)."""
    producers = {id(out): eqn for eqn in jaxpr.eqns for out in eqn.outvars}
    for eqn in jaxpr.eqns:
        for sub_jaxpr in jax.extend.core.jaxprs_in_params(eqn.params):
            found = _keys_made_from_bits(getattr(sub_jaxpr, "jaxpr", sub_jaxpr))
            if found:
                return found
        if eqn.primitive.name != "random_wrap":
            continue
        pending = [v for v in eqn.invars if not isinstance(v, jax.extend.core.Literal)]
        while pending:
            made = producers.get(id(pending.pop()))
            if made is None or made.primitive.name in _DERIVES:
                continue  # a program input, or a key JAX derived
            if made.primitive.name not in _MOVES:
                return made.primitive.name
            taken = made.invars[:1] if made.primitive.name in ("gather", "dynamic_slice") else made.invars  # not indices
            pending += [v for v in taken if not isinstance(v, jax.extend.core.Literal)]
    return ""


def _any(mask: Any) -> bool:
    return bool(getattr(mask, "any", lambda: mask)())


# --- how many random values were drawn ------------------------------------------------------------


def drawn_values(program: Program) -> int:
    """How many random values the program draws for its outputs: the sizes of the random_bits
    results its outputs depend on, times the trip count of the scans around them. A draw thrown
    away, or multiplied by zero, does not count."""
    live = {id(eqn) for eqn in program.live("random_bits")}
    return weighed(program.jaxpr, lambda eqn: math.prod(eqn.outvars[0].aval.shape) if id(eqn) in live else 0)


def assert_draws(program: Program, at_least: int, *, what: str, values: str, hint: str = "") -> None:
    """The program draws at least `at_least` random values: each value that must be independent
    comes from a draw of its own, not from a copy of another (rolled, mirrored, tiled, negated).

    Args:
      values: what must be independent, e.g. "2 x 4096 noise values".
    """
    __tracebackhide__ = True
    drawn = drawn_values(program)
    if drawn < at_least:
        fail(sentence(f"{what} draws {drawn} random value(s) for {values}: the rest are copies of "
                      f"those draws, moved, mirrored, negated or tiled. A copy of a draw is not "
                      f"independent of it, however uncorrelated it looks. Draw every value you need "
                      f"(one draw with the full shape gives that many independent values).",
                      hint, f"See {RANDOM_DOCS}"), "not-independent")


def assert_not_rearranged(values: Any, *, what: str, tolerance: float = 0.0, hint: str = "") -> None:
    """No value's magnitude recurs in large numbers: draws that are meant to be independent hold no
    shuffled, permuted or negated copy of one another, even where the copy is made with a second draw
    (a random permutation draws values too, so `assert_draws` counts it).

    Independent continuous draws almost never share a magnitude: at `tolerance` (the rounding the
    values went through, e.g. two ulps of the input they were added to) a few percent of them do;
    copies give every copied value a twin.
    """
    __tracebackhide__ = True
    magnitudes = np.sort(np.abs(np.ravel(np.asarray(values, dtype=np.float64))))
    close = np.diff(magnitudes) <= tolerance
    twinned = np.zeros(magnitudes.size, dtype=bool)
    twinned[1:] |= close
    twinned[:-1] |= close
    if twinned.mean() > 0.25:
        fail(sentence(f"{what}: {twinned.mean():.0%} of the values share their magnitude with another "
                      f"one, where independent draws share almost none. Some values are a copy of "
                      f"others, rearranged (shuffled, permuted, negated): a copy is not independent of "
                      f"what it copies, however uncorrelated it looks. Draw every value you need.",
                      hint, f"See {RANDOM_DOCS}"), "not-independent")


# --- what each key is derived from ----------------------------------------------------------------

# The operands that decide which key a primitive uses (or makes).
_KEY_DECIDERS = frozenset({"random_bits", "random_split", "random_fold_in", "random_wrap", "random_seed"})


def _flow(jaxpr: Any, tainted_in: list[bool], found: list[Any]) -> list[bool]:
    """Which outputs of `jaxpr` depend on a random draw (random_bits), given which inputs do;
    every key-deciding equation fed by a drawn value is added to `found`."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    tainted = {id(v) for v, t in zip(jaxpr.invars, tainted_in) if t}

    def is_tainted(var: Any) -> bool:
        return not isinstance(var, jax.extend.core.Literal) and id(var) in tainted

    for eqn in jaxpr.eqns:
        ins = [is_tainted(v) for v in eqn.invars]
        name = eqn.primitive.name
        if name in _KEY_DECIDERS and any(ins):
            found.append(eqn)
        if name == "random_bits":
            outs = [True] * len(eqn.outvars)
        else:
            outs = _flow_eqn(eqn, ins, found)
        tainted.update(id(v) for v, t in zip(eqn.outvars, outs) if t)
    return [is_tainted(v) for v in jaxpr.outvars]


def _flow_eqn(eqn: Any, ins: list[bool], found: list[Any]) -> list[bool]:
    name, params = eqn.primitive.name, eqn.params
    if name == "scan":
        consts, carry = params["num_consts"], params["num_carry"]
        state = list(ins)
        while True:
            outs = _flow(params["jaxpr"], state, found)
            merged = state[:consts] + [a or b for a, b in zip(state[consts:consts + carry], outs[:carry])] \
                + state[consts + carry:]
            if merged == state:
                return outs
            state = merged
    if name == "while":
        cond_n, body_n = params["cond_nconsts"], params["body_nconsts"]
        carry = ins[cond_n + body_n:]
        while True:
            outs = _flow(params["body_jaxpr"], ins[cond_n:cond_n + body_n] + carry, found)
            merged = [a or b for a, b in zip(carry, outs)]
            if merged == carry:
                break
            carry = merged
        if any(_flow(params["cond_jaxpr"], ins[:cond_n] + carry, found)):
            carry = [True] * len(carry)  # how many steps ran depends on a draw
        return carry
    if name == "cond":
        branch_outs = [_flow(branch, ins[1:], found) for branch in params["branches"]]
        return [ins[0] or any(column) for column in zip(*branch_outs)]
    subs = list(jax.extend.core.jaxprs_in_params(params))
    if len(subs) == 1 and len(getattr(subs[0], "jaxpr", subs[0]).invars) == len(ins):
        outs = _flow(subs[0], ins, found)  # jit, shard_map, checkpoint, custom_jvp/vjp calls
        if len(outs) == len(eqn.outvars):
            return outs
    for sub in subs:  # anything else: every input of a body may carry what any operand carries
        _flow(sub, [any(ins)] * len(getattr(sub, "jaxpr", sub).invars), found)
    return [any(ins)] * len(eqn.outvars)


def assert_keys_not_from_draws(program: Program, *, what: str, hint: str = "") -> None:
    """Every key the program draws with is derived from the key given (split, fold_in with a step
    or an id), never from values drawn with it: a key folded with a walk's position, say, repeats
    whenever the position does, and the draws repeat with it."""
    __tracebackhide__ = True
    found: list[Any] = []
    jaxpr = getattr(program.jaxpr, "jaxpr", program.jaxpr)
    _flow(jaxpr, [False] * len(jaxpr.invars), found)
    if found:
        fail(sentence(f"{what} derives a key from values it drew (its {found[0].primitive.name} takes "
                      f"a value computed from an earlier draw): whenever that value comes back, the "
                      f"key and everything drawn with it come back too, so the draws are not "
                      f"independent. Derive each key from the key you were given: split it, or fold in "
                      f"a step number or an id.", hint, f"See {RANDOM_DOCS}"), "key-reuse")
