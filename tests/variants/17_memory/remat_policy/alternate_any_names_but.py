"""Right, differently: save_any_names_but_these keeps every named value but the ones listed; only pre is named."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax
from jax.ad_checkpoint import checkpoint_name


@partial(jax.checkpoint, policy=jax.checkpoint_policies.save_any_names_but_these("unused"))
def _checkpointed(x, weights):
    w1, w2 = weights
    pre = checkpoint_name(jnp.dot(x, w1), "pre")
    return jnp.tanh(jnp.sin(pre) @ w2)


def block(x, weights):
    return _checkpointed(x, weights), None


def loss(params, x):
    y, _ = lax.scan(block, x, params)
    return jnp.mean(jnp.square(y))
