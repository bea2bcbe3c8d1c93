"""Right, unusually: the backbone weights go through a round trip of their bits (float32 to int32 and
back), which keeps every value and, being integer-valued in the middle, passes no gradient. The task
asks for zero backbone gradients at the same loss, not for one tool."""

import jax
import jax.numpy as jnp
from jax import lax


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    frozen = jax.tree.map(lambda w: lax.bitcast_convert_type(lax.bitcast_convert_type(w, jnp.int32), w.dtype),
                          params["backbone"])
    prediction = head(params["head"], backbone(frozen, x))
    return jnp.mean((prediction - y) ** 2)
