"""Right, unusually: the class registers itself with register_pytree_with_keys_class; the module functions delegate to it."""

import jax
from jax.tree_util import GetAttrKey


@jax.tree_util.register_pytree_with_keys_class
class Gaussian:
    """A diagonal Gaussian: `mean` and `log_std` are arrays (the data), `name` is a str (metadata)."""

    def __init__(self, mean, log_std, name):
        self.mean = mean
        self.log_std = log_std
        self.name = name

    def tree_flatten_with_keys(self):
        return ((GetAttrKey("mean"), self.mean), (GetAttrKey("log_std"), self.log_std)), self.name

    @classmethod
    def tree_unflatten(cls, name, children):
        obj = object.__new__(cls)  # skip __init__: children may be tracers or placeholders
        obj.mean, obj.log_std = children
        obj.name = name
        return obj


def gaussian_flatten_with_keys(g):
    return g.tree_flatten_with_keys()


def gaussian_unflatten(name, children):
    return Gaussian.tree_unflatten(name, children)
