"""Predict: what a checkpoint policy costs in recomputation.

Memory saved is work repeated. jax.grad of a layer runs its forward pass,
then its backward pass: each matmul's derivative is two more matmuls (one for
each operand's cotangent), and sin's derivative reads cos of sin's input.
Under jax.checkpoint, the backward pass first recomputes, from what was kept,
every value it needs that was not: a matmul whose output was not kept is
computed again, and so is a sin whose output is needed but was not kept. A
policy that keeps a value spares exactly the work that made it.
Docs: https://docs.jax.dev/en/latest/gradient-checkpointing.html

Task (predict): for each way of running `layer` below (the same four as in
memory-5), write down how many matmuls and how many sines the program of
jax.grad(loss) runs per layer, forward and backward together. The checks
trace it and count them, and, where you were wrong, show why.
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


# Your predictions: replace each ... with a count per layer, a Python int (no tracing first!)
MATMULS_PLAIN = ...
MATMULS_CHECKPOINTED = ...
MATMULS_DOTS_SAVEABLE = ...
MATMULS_SAVE_H = ...
SINES_PLAIN = ...
SINES_CHECKPOINTED = ...
SINES_DOTS_SAVEABLE = ...
SINES_SAVE_H = ...
