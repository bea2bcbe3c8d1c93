"""Right, unusually: also passes the optional key-less flatten (faster tree.map), and unflattens from an iterator."""

import jax
from jax.tree_util import GetAttrKey


class Gaussian:
    """A diagonal Gaussian: `mean` and `log_std` are arrays (the data), `name` is a str (metadata)."""

    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name


def gaussian_flatten_with_keys(g):
    return [(GetAttrKey(field), getattr(g, field)) for field in ("mean", "log_std")], g.name


def gaussian_flatten(g):
    return (g.mean, g.log_std), g.name


def gaussian_unflatten(name, children):
    it = iter(children)
    return Gaussian(mean=next(it), log_std=next(it), name=name)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten, gaussian_flatten)
