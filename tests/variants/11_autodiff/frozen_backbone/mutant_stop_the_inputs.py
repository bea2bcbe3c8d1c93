"""Wrong: stop_gradient on the inputs x: the backbone weights still get a gradient."""

import jax
import jax.numpy as jnp


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    prediction = head(params["head"], backbone(params["backbone"], jax.lax.stop_gradient(x)))
    return jnp.mean((prediction - y) ** 2)
