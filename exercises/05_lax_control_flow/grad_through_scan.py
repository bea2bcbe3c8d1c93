"""Differentiating through a loop: jax.grad works through lax.scan.

lax.scan is differentiable in both modes: reverse mode (jax.grad) saves each
step's carry on the way forward and walks them back, still as one loop. A
lax.while_loop, or a fori_loop with traced bounds (which becomes one), cannot
be reverse-differentiated: its trip count is unknown, so there is nowhere to
store the steps. Scan over the data and let jax.grad do the calculus.
Docs: https://docs.jax.dev/en/latest/control-flow.html
      https://docs.jax.dev/en/latest/_autosummary/jax.grad.html

Task (fill-in): a savings account starts at 0; each month the balance grows by
`rate`, then that month's deposit is added: b = b * (1 + rate) + deposit.
`final_balance(rate, deposits)` returns the balance after every deposit, with
one lax.scan over `deposits`. `rate_sensitivity(rate, deposits)` returns
d final_balance / d rate, computed by jax.grad. Keep both names and the jit.
"""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def final_balance(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: scan b = b * (1 + rate) + deposit over deposits")


@jax.jit
def rate_sensitivity(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    raise NotImplementedError("TODO: return jax.grad(final_balance)(rate, deposits)")
