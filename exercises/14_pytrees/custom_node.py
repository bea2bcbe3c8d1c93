"""Custom pytree nodes: tell JAX how to take your class apart and put it back.

To JAX an unregistered class is one opaque leaf. Registering it as a pytree
node gives JAX two functions. *flatten* splits an instance into its children
(arrays, or pytrees of them) and *auxiliary data*: hashable metadata kept in
the treedef, static under jit. *unflatten(aux_data, children)* rebuilds an
instance from them, children in flatten's order. jit, grad and vmap flatten
their inputs, work on the leaves and unflatten the results, so unflatten
receives tracers, gradients or batched arrays as children: it must store
them as they are. `jax.tree_util.register_pytree_with_keys` also takes a key
per child (`jax.tree_util.GetAttrKey("mean")`), so key paths, keystr and
error messages name the fields instead of `[<flat index 0>]`.
Docs: https://docs.jax.dev/en/latest/custom_pytrees.html
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_with_keys.html

Task (fill-in): write the two functions registered below, so a Gaussian goes
through jit, grad and vmap: children `mean` then `log_std`, keyed by their
attribute names; `name` is the auxiliary data; unflatten stores the children
it is handed as they are, converting nothing. Keep the class and names.
"""

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
    raise NotImplementedError("TODO: return the keyed children (mean, then log_std) and the name as aux data")


def gaussian_unflatten(name, children):
    """Return a Gaussian rebuilt from the aux data and the children."""
    raise NotImplementedError("TODO: rebuild the Gaussian from its name and its two children")


jax.tree_util.register_pytree_with_keys(Gaussian, gaussian_flatten_with_keys, gaussian_unflatten)
