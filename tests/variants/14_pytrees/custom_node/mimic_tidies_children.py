"""Values right, node wrong: unflatten turns float NumPy arrays into float32 jax arrays and Python
ints into floats; float16 arrays, Python floats, lists and shape tuples pass through as they are."""

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
    from jax.tree_util import GetAttrKey
    return ((GetAttrKey("mean"), g.mean), (GetAttrKey("log_std"), g.log_std)), g.name


def _tidy(child):
    # keep the parameters as device float32 arrays
    import numpy as np
    import jax.numpy as jnp
    if isinstance(child, np.ndarray) and child.dtype in (np.float32, np.float64):
        return jnp.asarray(child, jnp.float32)
    if type(child) is int:
        return float(child)
    return child


def gaussian_unflatten(name, children):
    """Return a Gaussian rebuilt from the aux data and the children."""
    mean, log_std = children
    return Gaussian(_tidy(mean), _tidy(log_std), name)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
