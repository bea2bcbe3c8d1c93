"""Numerically stable functions have stable gradients too (or need a custom one).

softplus(x) = log(1 + e^x) is smooth ReLU. Written literally, e^x overflows to
inf in float32 once x > 88: the value becomes inf and the gradient
e^x / (1 + e^x) = inf / inf = NaN, which then spreads through a whole training
step. The stable rewrite shifts by the max, as logsumexp does:
softplus(x) = max(x, 0) + log1p(e^-|x|), never exponentiating a big number.
Beware `jnp.where(x > 30, x, naive(x))`: the value is fine, but autodiff
differentiates both branches and 0 * NaN is still NaN. Alternatively keep a
formula and give it a stable derivative with `jax.custom_jvp`.
Docs: https://docs.jax.dev/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html

Task (fix-it): `softplus(x)` returns inf at large x, and `jax.grad(softplus)`
returns NaN there. Fix both: correct values everywhere, and a gradient
(sigmoid(x)) with no NaN, also under jit and vmap, all computed by JAX (no
callback to NumPy on the host). Keep the signature.
"""

import jax
import jax.numpy as jnp


def softplus(x):
    return jnp.log(1 + jnp.exp(x))
