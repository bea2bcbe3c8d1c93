"""Wrong: the name is a third child, so JAX meets a string among the leaves it must trace."""

import jax
from jax.tree_util import GetAttrKey


class Gaussian:
    """A diagonal Gaussian: `mean` and `log_std` are arrays (the data), `name` is a str (metadata)."""

    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name


def gaussian_flatten_with_keys(g):
    return ((GetAttrKey("mean"), g.mean), (GetAttrKey("log_std"), g.log_std), (GetAttrKey("name"), g.name)), None


def gaussian_unflatten(_, children):
    return Gaussian(*children)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
