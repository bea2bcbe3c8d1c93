"""Wrong: unflatten converts its children with jnp.asarray: fine for arrays and tracers, but it turns other leaves (shapes, None) into arrays or errors."""

import jax
import jax.numpy as jnp
from jax.tree_util import GetAttrKey


class Gaussian:
    """A diagonal Gaussian: `mean` and `log_std` are arrays (the data), `name` is a str (metadata)."""

    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name

    def __repr__(self):
        return f"Gaussian(mean={self.mean!r}, log_std={self.log_std!r}, name={self.name!r})"


def gaussian_flatten_with_keys(g):
    return ((GetAttrKey("mean"), g.mean), (GetAttrKey("log_std"), g.log_std)), g.name


def gaussian_unflatten(name, children):
    mean, log_std = children
    return Gaussian(jnp.asarray(mean), jnp.asarray(log_std), name)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
