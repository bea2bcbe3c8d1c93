"""Wrong: works through every transformation, but registered without keys, so key paths read [<flat index 0>]."""

import jax


class Gaussian:
    """A diagonal Gaussian: `mean` and `log_std` are arrays (the data), `name` is a str (metadata)."""

    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name


def gaussian_flatten(g):
    return (g.mean, g.log_std), g.name


def gaussian_unflatten(name, children):
    return Gaussian(*children, name)


jax.tree_util.register_pytree_node(Gaussian, gaussian_flatten, gaussian_unflatten)
