"""Wrong: stop_gradient around the whole loss freezes the head too: every gradient is zero."""

import jax
import jax.numpy as jnp


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    prediction = head(params["head"], backbone(params["backbone"], x))
    return jax.lax.stop_gradient(jnp.mean((prediction - y) ** 2))
