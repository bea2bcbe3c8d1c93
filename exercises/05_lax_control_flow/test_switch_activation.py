"""Checks for lax-6 (switch_activation)."""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.array([-2.0, -0.5, 0.0, 1.5], dtype=np.float32)
EXPECTED = [np.maximum(X, 0), np.tanh(X), np.log1p(np.exp(X))]  # relu, tanh, softplus
NAMES = ["relu", "tanh", "softplus"]


def test_applies_the_chosen_activation(exercise):
    x = jnp.asarray(X)
    for kind, want in enumerate(EXPECTED):
        checks.assert_close(exercise.activate(jnp.int32(kind), x), want, what=f"activate({kind}, x)",
                            hint=f"kind {kind} should apply {NAMES[kind]}, ACTIVATIONS[{kind}]: "
                                 f"the traced kind picks the branch when the program runs.")


def test_out_of_range_kinds_go_to_the_edge_branch(exercise):
    x = jnp.asarray(X)
    for kind, edge in ((-1, 0), (-7, 0), (3, 2), (50, 2)):
        checks.assert_close(
            exercise.activate(jnp.int32(kind), x), EXPECTED[edge], what=f"activate({kind}, x)",
            hint=f"lax.switch clamps its index into range, so kind {kind} runs {NAMES[edge]}; "
                 f"a modulo, Python negative indexing or a chain of `kind == i` tests sends it "
                 f"elsewhere. See {checks.DOCS}/_autosummary/jax.lax.switch.html")


def test_compiles_once_for_every_kind(exercise):
    x = jnp.asarray(X)
    kinds = [jnp.int32(k) for k in (1, 2, -1, 3)]
    with checks.count_compiles() as first:
        exercise.activate(jnp.int32(0), x)  # the one compile
    with checks.count_compiles() as log:
        for kind in kinds:
            exercise.activate(kind, x)
    checks.assert_compiles(
        log, what="activate()", calls=f"{len(kinds)} calls with new kinds and the same x", expected=0,
        warm_up=first,
        why="kind is reaching the program as a compile-time constant (a static argument, "
            "used to index the tuple in Python): lax.switch takes a traced index, so one "
            "program holds every branch")
    checks.assert_one_program(
        exercise.activate, [(kinds[0], x), (kinds[2], x)], what="activate()", calls_text="kinds 1 and -1",
        expected=[EXPECTED[1], EXPECTED[0]],
        why="kind is reaching the program as a compile-time constant (a static argument, "
            "used to index the tuple in Python): lax.switch takes a traced index, so one "
            "program holds every branch")
    # "Keep the jit": called on arrays, the one traced program runs, whole (no kind chosen in Python).
    checks.assert_jitted(exercise.activate, jnp.int32(0), x, what="activate", expected=EXPECTED[0], entirely=True,
                         single=True)
    values = np.random.default_rng(6).normal(size=8).astype(np.float32)
    program = checks.program_of(exercise.activate, jnp.int32(2), jnp.asarray(values), what="activate(2, x)")
    checks.assert_computes(program, np.log1p(np.exp(values)), what="activate(2, x)")
