"""Wrong: stops the gradient at the head's parameters, freezing the part that should learn."""

import jax
import jax.numpy as jnp


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    frozen_head = jax.tree.map(jax.lax.stop_gradient, params["head"])
    prediction = head(frozen_head, backbone(params["backbone"], x))
    return jnp.mean((prediction - y) ** 2)
