"""Checks for vmap-5 (ensemble_params)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

# The checks call the learner's function under jax.jit: one compile per call instead of one per
# eager operation (vmap run eagerly compiles each primitive on its own).

D, K = 2, 3

HINT = ("Only w has a member axis; the bias is tied (one copy for every member) and x is the same "
        "input for every member: in_axes can say so leaf by leaf, with a dict shaped like params.")


def _inputs(members, seed=0, d=D, k=K):
    rng = np.random.default_rng(seed)
    params = {"w": rng.normal(size=(members, d, k)).astype(np.float32),
              "b": rng.normal(size=k).astype(np.float32)}
    x = rng.normal(size=d).astype(np.float32)
    return params, x


def _by_hand(params, x):
    return np.tanh(np.einsum("d,edk->ek", x, params["w"]) + params["b"])


def _call(exercise, params, x):
    return jax.jit(exercise.ensemble_outputs)(params, x)


def _what_went_wrong(params, x, out):
    out = np.asarray(out)
    members = params["w"].shape[0]
    if members == params["b"].shape[0]:
        bias_mapped = np.tanh(np.einsum("d,edk->ek", x, params["w"]) + params["b"][:, None])
        if out.shape == bias_mapped.shape and np.allclose(out, bias_mapped, rtol=1e-5, atol=1e-5):
            return ("Member i added the single number b[i], not the whole bias: b is mapped as if "
                    "it were stacked per member, but it is tied. " + HINT)
    return HINT


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
                        rtol=1e-5, atol=1e-5, hint=_what_went_wrong(params, x, out))


def test_maps_layer_itself(exercise):
    # Another model in layer's place: a vmap of layer follows it; the ensemble written out
    # by hand (an einsum) does not, nor layer called once on the whole stack of weights (the
    # max below is one member's under vmap, every member's in such a call). Values first
    # (6 members), then the swap on shapes not traced yet (5 members).
    params, x = _inputs(members=6, seed=6, d=3, k=2)
    out = _call(exercise, params, x)
    checks.assert_close(out, _by_hand(params, x), what="ensemble_outputs(params, x) with 6 members",
                        rtol=1e-5, atol=1e-5, hint=_what_went_wrong(params, x, out))
    params, x = _inputs(members=5, seed=5, d=3, k=2)

    def another(params, x):
        return jnp.sin(x @ params["w"]) * params["b"] + jnp.max(params["w"])

    with checks.swap_function(exercise, "layer", another):
        outs = checks.both_ways(exercise.ensemble_outputs, params, x)  # traced and on arrays: it follows both
    outputs = np.sin(np.einsum("d,edk->ek", x, params["w"])) * params["b"]
    whole_stack = outputs + params["w"].max()
    want = outputs + params["w"].max(axis=(1, 2))[:, None]
    for how, out in outs.items():
        if np.shape(out) == whole_stack.shape and np.allclose(out, whole_stack, rtol=1e-5, atol=1e-6):
            checks.fail("ensemble_outputs(params, x) calls layer once with the whole stack of weights: "
                        "with layer swapped for a model that takes the max of its w, every member got "
                        "the max over all members. The matmul happens to broadcast over the member "
                        "axis, but a one-model layer need not: map it with jax.vmap, which hands it one "
                        "member's w of shape (d, k) at a time.", "wrong-tool")
        checks.assert_follows(out, want, what=f"ensemble_outputs(params, x) {how}", swapped="layer",
                              rtol=1e-5, atol=1e-6,
                              hint="The task is to run the one-model layer over the stacked weights "
                                   "with jax.vmap, not to write the ensemble's formula again.",
                              shape_hint="One row per member, one column per output.")


def test_tied_bias_and_input_are_not_copied_per_member(exercise):
    # Values cannot tell in_axes=None from a bias tiled to (E, k) and mapped: the program can.
    params, x = _inputs(members=7, seed=7)
    what = "ensemble_outputs(params, x) with 7 members"
    # The program read below is this call's: it must compute the ensemble's outputs.
    checks.assert_computes(checks.program_of(exercise.ensemble_outputs, params, x, what=what), _by_hand(params, x),
                           what=what)
    checks.assert_no_stacked_copies(
        exercise.ensemble_outputs, params, x, shared={"[0]['b']": "the tied bias b", "[1]": "the input x"},
        copies=7, what="ensemble_outputs(params, x) with 7 members", hint=HINT)


def test_program_does_not_grow_with_ensemble_size(exercise):
    programs = checks.assert_not_unrolled_over_batch(exercise.ensemble_outputs, _inputs, (4, 9),
                                                     what="ensemble_outputs", hint=HINT, expected=_by_hand)
    what = "ensemble_outputs(params, x)"
    program = programs[9]  # run and compared with the outputs above: the program that computes them
    checks.assert_not_uses(
        program, {"scan", "while"}, what=what,
        why="A loop primitive (lax.map, scan, fori_loop) runs the members one after another; "
            "jax.vmap runs the whole ensemble as one vectorized program.")
    # One vmap of layer over w: layer's tanh runs once, batched, and w is handed to it slice by slice
    # by vmap itself, never picked out by index.
    if program.times("tanh") != 1:
        checks.fail(f"{what}: layer's tanh appears {program.times('tanh')} times in the program: the members "
                    f"are mapped in groups (several vmaps, joined after), where one jax.vmap of layer, in_axes "
                    f"mapping w, runs every member at once.", "wrong-tool")
    checks.assert_not_uses(
        program, {"gather", "dynamic_slice"}, what=what,
        why="Each member's w is picked out of the stack by index (a vmap over member numbers): in_axes "
            "should map w itself, so that vmap hands layer one member's w at a time.")
