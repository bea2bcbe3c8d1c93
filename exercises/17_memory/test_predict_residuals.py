"""Checks for memory-5 (predict_residuals): traced here, on this file's own copy of the program."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.ad_checkpoint import checkpoint_name

from grader import checks

DOCS = f"See {checks.DOCS}/gradient-checkpointing.html"
LAYERS, BATCH, WIDTH = 4, 2, 3


def layer(x, weights):
    w1, w2 = weights
    h = checkpoint_name(jnp.sin(x @ w1), "h")
    return jnp.tanh(h @ w2), None


policies = jax.checkpoint_policies
STEPS = {
    "PLAIN": layer,
    "CHECKPOINTED": jax.checkpoint(layer),
    "DOTS_SAVEABLE": jax.checkpoint(layer, policy=policies.dots_saveable),
    "SAVE_H": jax.checkpoint(layer, policy=policies.save_only_these_names("h")),
}


def loss(step, params, x):
    y, _ = lax.scan(step, x, params)
    return jnp.mean(y ** 2)


WHY = {
    "PLAIN": "With no checkpoint, autodiff keeps every value a derivative rule reads",
    "CHECKPOINTED": "jax.checkpoint with its default policy keeps only the step's input and recomputes the rest "
                    "in the backward pass",
    "DOTS_SAVEABLE": "dots_saveable keeps the step's input and every matmul output",
    "SAVE_H": "save_only_these_names('h') keeps the step's input and the value named h",
}


def test_residuals_kept_per_layer(predictions):
    with checks.judging(predictions) as judge:
        guesses = {name: judge.guess(f"KEPT_{name}", what=f"the arrays {name} keeps per layer") for name in STEPS}
        params = (jnp.ones((LAYERS, WIDTH, 2 * WIDTH)), jnp.ones((LAYERS, 2 * WIDTH, WIDTH)))
        x = jnp.ones((BATCH, WIDTH))
        for name, step in STEPS.items():
            program = checks.program_of(jax.grad(lambda p, x: loss(step, p, x)), params, x, what="jax.grad(loss)")
            kept = program.stored_per_step()
            listed = "; ".join(value.describe() for value in kept)
            judge.compare(guesses[name], len(kept), name=f"KEPT_{name}", form=checks.forms.COUNT,
                          what=f"the arrays jax.grad(loss) keeps per layer with the {name} step",
                          why=f"{WHY[name]}: {listed}. {DOCS}")
