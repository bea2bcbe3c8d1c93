"""Checkpoint policies: choose which values the backward pass may keep.

jax.checkpoint(f, policy=...) decides value by value what f's forward pass
keeps for the backward pass; everything else is recomputed there. Policies live
in jax.checkpoint_policies: nothing_saveable (the default: recompute all),
everything_saveable, dots_saveable (keep every matmul output). To keep exactly
the values you pick, name them inside f with
jax.ad_checkpoint.checkpoint_name(value, "name"), which returns value unchanged,
and pass policy=jax.checkpoint_policies.save_only_these_names("name"). Under
jax.grad a scan over layers stacks what it keeps, once per layer; print it with
jax.ad_checkpoint.print_saved_residuals(loss, params, x).
Docs: https://docs.jax.dev/en/latest/gradient-checkpointing.html

Task (fill-in): `block(x, weights)` is one layer: pre = x @ w1 (a wide matmul
worth keeping), then tanh(sin(pre) @ w2). Write `loss(params, x)`: run x through
the layers with one rolled lax.scan over params = (w1s, w2s) (stacked per
layer), and return the mean of the final output squared. Checkpoint the block so
each layer keeps only its input and `pre`: the second matmul and the rest are
recomputed. Name `pre` inside `block` (edit it too; its values stay the same).
Keep the names and signatures.
"""

import jax
import jax.numpy as jnp
from jax import lax
from jax.ad_checkpoint import checkpoint_name


def block(x, weights):
    w1, w2 = weights
    pre = x @ w1
    return jnp.tanh(jnp.sin(pre) @ w2), None


def loss(params, x):
    raise NotImplementedError("TODO: lax.scan a jax.checkpoint-ed block over params with a policy that "
                              "saves only the value named 'pre'")
