"""Wrong: keys every child with the same attribute name, so both key paths read .mean."""

import jax
from jax.tree_util import GetAttrKey


class Gaussian:
    """A diagonal Gaussian: `mean` and `log_std` are arrays (the data), `name` is a str (metadata)."""

    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name


def gaussian_flatten_with_keys(g):
    return ((GetAttrKey("mean"), g.mean), (GetAttrKey("mean"), g.log_std)), g.name


def gaussian_unflatten(name, children):
    return Gaussian(*children, name)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
