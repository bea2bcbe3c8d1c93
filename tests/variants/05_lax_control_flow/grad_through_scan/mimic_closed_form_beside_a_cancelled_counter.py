"""Values right, loop wrong: the balance as a closed-form sum of discounted deposits, plus a scan over
the deposits that ignores them and counts up by 2, added back as an exact 0; its transpose is the
backward scan, so the gradient holds one too."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def final_balance(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    # closed form: sum_t deposit_t * (1 + rate) ** (T - 1 - t)
    n = deposits.shape[0]
    powers = (1 + rate) ** jnp.arange(n - 1, -1, -1, dtype=deposits.dtype)
    balance = jnp.sum(deposits * powers)

    def tick(c, _):
        return c + 2.0, None

    seed = rate + deposits[0]
    final, _ = lax.scan(tick, seed, deposits)
    return balance + (final - seed - 2.0 * n)


@jax.jit
def rate_sensitivity(rate: jnp.ndarray, deposits: jnp.ndarray) -> jnp.ndarray:
    return jax.grad(final_balance)(rate, deposits)
