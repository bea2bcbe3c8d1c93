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
BONUS, FACTOR = 1.0, 0.5


def expected(weights, banned, boosted, damped):
    # NumPy may update in place: on a private copy, that is the reference.
    out = np.array(weights)
    out[banned] = 0.0
    out[boosted] += BONUS
    out[damped] *= FACTOR
    return out


def _what_went_wrong(out, weights, banned, boosted, damped):
    """Name the group of ids that came out wrong, and how."""
    out, want = np.asarray(out), expected(weights, banned, boosted, damped)
    if out.shape != want.shape:
        return ""
    if not np.allclose(out[banned], 0.0):
        return f"The banned ids hold {out[banned].tolist()}; each should become 0."
    if not np.allclose(out[boosted], want[boosted]):
        if np.allclose(out[boosted], BONUS):
            return (f"The boosted ids were replaced by BONUS ({out[boosted].tolist()}) instead of "
                    f"gaining it: that is a set where an add belongs.")
        return f"The boosted ids hold {out[boosted].tolist()}; each should gain BONUS ({want[boosted].tolist()})."
    if not np.allclose(out[damped], want[damped]):
        if np.allclose(out[damped], FACTOR):
            return (f"The damped ids were replaced by FACTOR ({out[damped].tolist()}) instead of being "
                    f"scaled by it: that is a set where a multiply belongs.")
        return f"The damped ids hold {out[damped].tolist()}; each should be scaled by FACTOR ({want[damped].tolist()})."
    return "Ids in none of the three lists must keep their weights."


def test_bans_boosts_and_damps(exercise):
    weights = jnp.asarray(WEIGHTS)
    with checks.host_reads() as reads:
        out = exercise.reweight(weights, jnp.asarray(BANNED), jnp.asarray(BOOSTED), jnp.asarray(DAMPED))
    if reads:
        checks.fail(f"reweight read {len(reads)} array(s) back to the host ({', '.join(reads[:3])}): the "
                    f"update ran on NumPy copies, as the NumPy original did, and only the result went back "
                    f"to JAX. A JAX array is updated with `.at[idx].set/add/multiply`, which returns a new "
                    f"array where the values are. See {checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html",
                    "host-transfer")
    checks.assert_close(out, expected(WEIGHTS, BANNED, BOOSTED, DAMPED),
                        what="reweight(weights, banned, boosted, damped)",
                        hint=_what_went_wrong(out, WEIGHTS, BANNED, BOOSTED, DAMPED))


def test_leaves_the_callers_array_untouched(exercise):
    weights = jnp.asarray(WEIGHTS)
    exercise.reweight(weights, jnp.asarray(BANNED), jnp.asarray(BOOSTED), jnp.asarray(DAMPED))
    if weights.is_deleted():
        checks.fail(
            "after reweight(weights, ...) the caller's `weights` array is deleted: its buffer was "
            "donated to the jitted function and reused for the result. The caller still owns its "
            "array; `.at[...]` updates already happen in place inside jit whenever that is safe, so "
            f"nothing needs donating. See {checks.DOCS}/buffer_donation.html", "mutates-input")
    checks.assert_close(
        weights, WEIGHTS, what="the caller's `weights` after reweight(weights, ...)",
        hint="An `.at[...]` update returns a new array; the input must keep its values.")


def test_runs_under_jit(exercise):
    weights = jnp.asarray(WEIGHTS)
    jitted = jax.jit(exercise.reweight)
    for ids in [(BANNED, BOOSTED, DAMPED), OTHER_IDS]:
        args = [jnp.asarray(i) for i in ids]
        try:
            out = jitted(weights, *args)
        except (jax.errors.TracerArrayConversionError, jax.errors.ConcretizationTypeError):
            checks.fail("reweight hands its traced arguments to NumPy (a NumPy copy or NumPy indexing): "
                        "under jit they are tracers with no values, so NumPy cannot copy or index them. "
                        "Update the JAX array itself, functionally: the `.at[...]` updates return a new "
                        "array and work the same with and without jit. "
                        f"See {checks.DOCS}/_autosummary/jax.numpy.ndarray.at.html", "numpy-on-tracer")
        checks.assert_close(out, expected(WEIGHTS, *ids),
                            what=f"jax.jit(reweight)(weights, *{[i.tolist() for i in ids]})",
                            hint=_what_went_wrong(out, WEIGHTS, *ids))
    # The program read is JAX's own scatters, and computes the updates on the last ids.
    checks.assert_computes(checks.program_of(exercise.reweight, weights, *args, what="reweight"),
                           expected(WEIGHTS, *ids), what=f"reweight(weights, *{[i.tolist() for i in ids]})")
