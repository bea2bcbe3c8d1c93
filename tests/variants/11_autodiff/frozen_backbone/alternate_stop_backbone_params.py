"""Right, differently: stop the gradient at the backbone's parameters instead of its output."""

import jax
import jax.numpy as jnp


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    frozen = jax.tree.map(jax.lax.stop_gradient, params["backbone"])
    prediction = head(params["head"], backbone(frozen, x))
    return jnp.mean((prediction - y) ** 2)
