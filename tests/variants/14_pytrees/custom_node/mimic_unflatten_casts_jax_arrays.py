"""Values right, node wrong: unflatten casts every JAX array child (tracers included) to float32.
NumPy arrays, numbers, lists and shape tuples pass through, and the checks' tracers are float32 already,
but a Gaussian mapped to bfloat16 or int32 JAX arrays comes back float32: unflatten converts its children."""

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
    """Return (((key, child), ...), aux_data)."""
    return ((GetAttrKey("mean"), g.mean), (GetAttrKey("log_std"), g.log_std)), g.name


def _on_device_float32(child):
    # keep device parameters in float32
    if isinstance(child, jax.Array):
        return child.astype(jnp.float32)
    return child


def gaussian_unflatten(name, children):
    """Return a Gaussian rebuilt from the aux data and the children."""
    mean, log_std = children
    return Gaussian(_on_device_float32(mean), _on_device_float32(log_std), name)


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
