"""Reference solution for grad-5: stop_gradient on the backbone's output."""

import jax
import jax.numpy as jnp


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    # Same features forward; for differentiation they are a constant, so the
    # backbone's gradient is exactly zero.
    features = jax.lax.stop_gradient(backbone(params["backbone"], x))
    prediction = head(params["head"], features)
    return jnp.mean((prediction - y) ** 2)
