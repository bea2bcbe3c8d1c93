"""Predict: how many arrays a checkpoint policy keeps per layer.

Under jax.grad, a lax.scan over layers stacks, for each layer, the residuals
its backward pass will read. Without jax.checkpoint, autodiff keeps every
value the derivative rules need: here the layer's input, sin's derivative
cos(x @ w1), h, and tanh's output with its derivative 1 - tanh(...)**2.
jax.checkpoint(layer) keeps only the layer's input and recomputes the rest.
A policy keeps more: dots_saveable keeps every matmul output,
save_only_these_names("h") the values named "h", everything_saveable all of
them. Whatever a policy keeps besides the input saves recomputing it.
Docs: https://docs.jax.dev/en/latest/gradient-checkpointing.html

Task (predict): for each way of running `layer` below, write down how many
arrays jax.grad(loss) keeps per layer (the step's input included). The checks
trace jax.grad of each and count the stacked residuals, and, where you were
wrong, show what is kept and why.
The checks read each prediction as a literal from this file's text; they
never import or run it.
"""

import jax
import jax.numpy as jnp
from jax import lax
from jax.ad_checkpoint import checkpoint_name


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


# Your predictions: replace each ... with a number of arrays per layer, a Python int (no tracing first!)
KEPT_PLAIN = ...
KEPT_CHECKPOINTED = ...
KEPT_DOTS_SAVEABLE = ...
KEPT_SAVE_H = ...
