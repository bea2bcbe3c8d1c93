"""Wrong: flatten_with_keys returns the bare children, as a plain flatten would, without a key for each."""

import jax


class Gaussian:
    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name


def gaussian_flatten_with_keys(g):
    return (g.mean, g.log_std), g.name


def gaussian_unflatten(name, children):
    mean, log_std = children
    return Gaussian(mean, log_std, name)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
