"""Values right, node wrong: unflatten turns Python numbers and lists into arrays; arrays, tracers
and shape tuples pass through as they are, but a tree mapped to numbers comes back holding arrays."""

import jax


class Gaussian:
    """A diagonal Gaussian: `mean` and `log_std` are arrays (the data), `name` is a str (metadata)."""

    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name

    def __repr__(self):
        return f"Gaussian(mean={self.mean!r}, log_std={self.log_std!r}, name={self.name!r})"


def gaussian_flatten_with_keys(g):
    """Return (((key, child), ...), aux_data)."""
    return ((jax.tree_util.GetAttrKey("mean"), g.mean), (jax.tree_util.GetAttrKey("log_std"), g.log_std)), g.name


def gaussian_unflatten(name, children):
    """Return a Gaussian rebuilt from the aux data and the children."""
    # Python numbers and lists become arrays; arrays and anything else stay as they are
    mean, log_std = (jax.numpy.asarray(c) if isinstance(c, (int, float, list)) else c for c in children)
    return Gaussian(mean, log_std, name)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
