"""Checks for at-1 (immutable_updates)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

WEIGHTS = np.array([1.0, 2.0, 0.5, 3.0, 1.5, 4.0, 2.5, 0.25], dtype=np.float32)
BANNED = np.array([5, 1])
BOOSTED = np.array([0, 6, 3])
DAMPED = np.array([7, 2])
# The same shapes, other ids: index arrays are data, so no new program is needed.
OTHER_IDS = (np.array([0, 7]), np.array([2, 4, 5]), np.array([6, 1]))


def expected(weights, banned, boosted, damped, bonus=1.0, factor=0.5):
    # NumPy may update in place: on a private copy, that is the reference.
    out = np.array(weights)
    out[banned] = 0.0
    out[boosted] += bonus
    out[damped] *= factor
    return out


def test_bans_boosts_and_damps(exercise):
    weights = jnp.asarray(WEIGHTS)
    out = exercise.reweight(weights, jnp.asarray(BANNED), jnp.asarray(BOOSTED), jnp.asarray(DAMPED))
    checks.assert_close(
        out, expected(WEIGHTS, BANNED, BOOSTED, DAMPED), what="reweight(weights, banned, boosted, damped)",
        hint="Banned ids are set to 0 (.at[i].set), boosted ids gain BONUS (.at[i].add), damped "
             "ids are multiplied by FACTOR (.at[i].multiply).")


def test_leaves_the_callers_array_untouched(exercise):
    weights = jnp.asarray(WEIGHTS)
    exercise.reweight(weights, jnp.asarray(BANNED), jnp.asarray(BOOSTED), jnp.asarray(DAMPED))
    if weights.is_deleted():
        checks.fail(
            "after reweight(weights, ...) the caller's `weights` array is deleted: its buffer was "
            "donated (donate_argnums) and reused for the result. The caller still owns its array; "
            "`.at[...]` already updates in place inside jit whenever that is safe, so drop the "
            f"donation. See {checks.DOCS}/buffer_donation.html")
    checks.assert_close(
        weights, WEIGHTS, what="the caller's `weights` after reweight(weights, ...)",
        hint="`.at[i].set/add/multiply` return a new array; the input must keep its values.")


def test_runs_under_jit(exercise):
    weights = jnp.asarray(WEIGHTS)
    jitted = jax.jit(exercise.reweight)
    for ids in [(BANNED, BOOSTED, DAMPED), OTHER_IDS]:
        out = jitted(weights, *(jnp.asarray(i) for i in ids))
        checks.assert_close(
            out, expected(WEIGHTS, *ids), what=f"jax.jit(reweight)(weights, *{[i.tolist() for i in ids]})",
            hint="Under jit the arguments are tracers: use jnp operations and .at[...] updates, "
                 "not NumPy copies (np.array(weights)) or Python-level item assignment.")
