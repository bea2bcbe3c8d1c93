"""Checks for memory-6 (predict_recompute): traced here, on this file's own copy of the program."""

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


KEPT = {
    "PLAIN": "nothing is recomputed: every residual is kept",
    "CHECKPOINTED": "only the layer's input is kept, so the backward pass recomputes both matmuls and the sine",
    "DOTS_SAVEABLE": "both matmul outputs are kept, so only sin and tanh are recomputed from them",
    "SAVE_H": "h is kept, but sin's input (for cos) and tanh's input are not: both matmuls are recomputed, "
              "the sine is not",
}


def test_work_per_layer(predictions):
    kinds = (("MATMULS", "dot_general"), ("SINES", "sin"))
    with checks.judging(predictions) as judge:
        guesses = {f"{kind}_{name}": judge.guess(f"{kind}_{name}", what=f"the {kind.lower()} per layer with {name}")
                   for name in STEPS for kind, _ in kinds}
        params = (jnp.ones((LAYERS, WIDTH, 2 * WIDTH)), jnp.ones((LAYERS, 2 * WIDTH, WIDTH)))
        x = jnp.ones((BATCH, WIDTH))
        for name, step in STEPS.items():
            # A scan's body is traced once for all its layers: counts in the program are counts per layer.
            counted = checks.program_of(jax.grad(lambda p, x: loss(step, p, x)), params, x,
                                        what="jax.grad(loss)").primitives()
            for kind, primitive in kinds:
                judge.compare(guesses[f"{kind}_{name}"], counted.count(primitive), name=f"{kind}_{name}",
                              form=checks.forms.COUNT,
                              what=f"the {kind.lower()} per layer in jax.grad(loss) with the {name} step",
                              why=f"The forward pass runs 2 matmuls and 1 sine; the backward pass adds 2 matmuls "
                                  f"per matmul; with {name}, {KEPT[name]}. {DOCS}")
