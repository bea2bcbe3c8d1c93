"""Straight-through estimators: round in the forward pass, not in the gradient.

Quantising (rounding weights or activations to a grid) has derivative 0 almost
everywhere, so jax.grad through jnp.round is 0 and nothing before it ever
learns. The straight-through estimator keeps the rounded value in the forward
pass and, in the backward pass, treats the function as the identity: the
incoming gradient passes through unchanged. A custom derivative rule says
exactly that. With jax.custom_jvp the rule returns (round(x), t); with
jax.custom_vjp, bwd returns (g,). The program then holds the custom rule
(custom_jvp_call or custom_vjp_call) and the forward value is jnp.round itself.
(The arithmetic trick x + stop_gradient(round(x) - x) reaches the same numbers
without a rule; this kata practises the rule.)
Docs: https://docs.jax.dev/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html

Task (fix-it): `quantize(x)` rounds to the nearest integer (halves to even, as
jnp.round does), but its gradient is 0 everywhere. Give it a straight-through
gradient with jax.custom_jvp or jax.custom_vjp, either one: values exactly
jnp.round(x), computed by JAX (no callback to NumPy on the host), and jax.grad
(reverse mode, the only derivative the checks take) the identity, also under
jit and vmap. Keep the signature.
"""

import jax
import jax.numpy as jnp


def quantize(x):
    return jnp.round(x)
