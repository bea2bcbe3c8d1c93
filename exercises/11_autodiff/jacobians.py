"""jacfwd vs jacrev: same Jacobian, different cost; and the Hessian.

For f: R^n -> R^m the Jacobian is m x n. `jax.jacfwd` builds it in forward
mode, pushing n input directions through f (one JVP per column); `jax.jacrev`
uses reverse mode, pulling m output directions back (one VJP per row). Pick
the smaller count: jacfwd for "tall" Jacobians (few inputs, many outputs),
jacrev for "wide" ones (many inputs, few outputs; a scalar loss is the widest
of all, hence reverse-mode `grad`). The Hessian of a scalar function is the
Jacobian of its gradient: `jax.jacfwd(jax.jacrev(f))` (what `jax.hessian` does).
Docs: https://docs.jax.dev/en/latest/notebooks/autodiff_cookbook.html

Task (fill-in): write `jacobian_of_expand(x)` (x of shape (3,), Jacobian
(200, 3)) and `jacobian_of_summarize(x)` (x of shape (200,), Jacobian (3, 200)),
each in the mode that is cheap for its shape, and `hessian_of_energy(x)` (n x n
for x of shape (n,)). The checks also count the work your code does: the
arrays it builds, in loops too.
"""

import jax
import jax.numpy as jnp
import numpy as np

A = jnp.asarray(np.cos(np.arange(600.0)).reshape(200, 3), dtype=jnp.float32)


def expand(x):  # R^3 -> R^200
    return jnp.tanh(A @ x)


def summarize(x):  # R^200 -> R^3
    return A.T @ jnp.tanh(x)


def energy(x):  # R^n -> R
    return jnp.sum(x**4) / 4 + jnp.sum(x) ** 2 / 2


def jacobian_of_expand(x):
    raise NotImplementedError("TODO: the (200, 3) Jacobian of expand, in the cheap mode")


def jacobian_of_summarize(x):
    raise NotImplementedError("TODO: the (3, 200) Jacobian of summarize, in the cheap mode")


def hessian_of_energy(x):
    raise NotImplementedError("TODO: the Hessian of energy: the Jacobian of its gradient")
