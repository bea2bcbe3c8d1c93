"""Right, differently: a hand-written policy that saves the value named "pre", and a jitted loss."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.ad_checkpoint import checkpoint_name


def block(x, weights):
    w1, w2 = weights
    pre = checkpoint_name(x @ w1, "pre")
    return jnp.tanh(jnp.sin(pre) @ w2), None


def _save_pre(primitive, *avals, **params):
    return primitive.name == "name" and params.get("name") == "pre"


@jax.jit
def loss(params, x):
    y, _ = lax.scan(jax.checkpoint(block, policy=_save_pre), x, params)
    return jnp.mean(y ** 2)
