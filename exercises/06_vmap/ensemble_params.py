"""in_axes with pytrees: map some parameters, share others.

An `in_axes` entry can be a pytree matching the argument: a dict of axes
for a dict of parameters. So one vmap can run an ensemble of models whose
weights are stacked along a leading axis while a tied parameter (one copy
for every member) and the input stay unmapped (`None`).
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html

Task (fill-in): `layer(params, x)` is one model: `tanh(x @ params["w"] +
params["b"])` with w of shape (d, k), b of shape (k,) and x of shape (d,).
The ensemble's params hold E stacked weight matrices, `w` of shape
(E, d, k), but one shared bias `b` of shape (k,). Write
`ensemble_outputs(params, x)` returning every member's output for the same
`x`, shape (E, k), with one `jax.vmap` of `layer` whose in_axes maps only w.
Keep both signatures.
"""

import jax
import jax.numpy as jnp


def layer(params: dict, x: jnp.ndarray) -> jnp.ndarray:
    return jnp.tanh(x @ params["w"] + params["b"])


def ensemble_outputs(params: dict, x: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: vmap layer with in_axes=({'w': ..., 'b': ...}, ...) mapping only w")
