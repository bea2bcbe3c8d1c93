"""Checks for vmap-5 (ensemble_params)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

D, K = 2, 3

HINT = ("in_axes=({'w': 0, 'b': None}, None): only w has a member axis; the bias is tied and "
        "x is the same input for every member.")


def _inputs(members, seed=0):
    rng = np.random.default_rng(seed)
    params = {"w": rng.normal(size=(members, D, K)).astype(np.float32),
              "b": rng.normal(size=K).astype(np.float32)}
    x = rng.normal(size=D).astype(np.float32)
    return params, x


def _by_hand(params, x):
    return np.tanh(np.einsum("d,edk->ek", x, params["w"]) + params["b"])


def _call(exercise, params, x):
    return jax.jit(exercise.ensemble_outputs)(params, x)


def test_every_member_sees_the_same_input(exercise):
    params, x = _inputs(members=4)
    out = _call(exercise, params, x)
    checks.assert_shape_dtype(out, (4, K), jnp.float32, what="ensemble_outputs(params, x) with 4 members",
                              hint="One row per member. " + HINT)
    checks.assert_close(out, _by_hand(params, x), what="ensemble_outputs(params, x)", rtol=1e-5, atol=1e-5,
                        hint=HINT)


def test_members_as_many_as_bias_entries(exercise):
    # E == k: mapping the bias too would not fail on shapes here, only on values.
    params, x = _inputs(members=K, seed=1)
    out = _call(exercise, params, x)
    checks.assert_close(out, _by_hand(params, x), what=f"ensemble_outputs(params, x) with {K} members",
                        rtol=1e-5, atol=1e-5,
                        hint="Member i must add the whole bias b, not its entry b[i]. " + HINT)


def test_program_does_not_grow_with_ensemble_size(exercise):
    checks.assert_not_unrolled_over_batch(exercise.ensemble_outputs, _inputs, (2, 9),
                                          what="ensemble_outputs", hint=HINT)
