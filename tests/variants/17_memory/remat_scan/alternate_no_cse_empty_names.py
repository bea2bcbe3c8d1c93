"""Right, another spelling: jax.remat on the step with prevent_cse=False (safe inside a scan) and a
policy that saves only the values named in an empty list, which is to say none of them."""

import jax
import jax.numpy as jnp
from jax import lax


def layer(x, w):
    return jnp.tanh(x @ w), None


def loss(ws, x):
    step = jax.remat(layer, prevent_cse=False, policy=jax.checkpoint_policies.save_only_these_names())
    y, _ = lax.scan(step, x, ws)
    return jnp.mean(y ** 2)
