"""Values right, tool wrong: computes the features in NumPy to hide them from autodiff instead of
using stop_gradient; NumPy cannot take the traced values jax.grad and jit pass in."""

import jax.numpy as jnp
import numpy as np


def backbone(backbone_params, x):
    return jnp.tanh(x @ backbone_params["w"])


def head(head_params, features):
    return features @ head_params["w"] + head_params["b"]


def finetune_loss(params, x, y):
    features = np.tanh(np.asarray(x) @ np.asarray(params["backbone"]["w"]))
    prediction = head(params["head"], jnp.asarray(features))
    return jnp.mean((prediction - y) ** 2)
