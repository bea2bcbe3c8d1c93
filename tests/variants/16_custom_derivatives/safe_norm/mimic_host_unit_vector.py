"""Values right, work wrong: the rule's unit vector x / norm(x) (0 at x = 0) is computed on the
host, in NumPy, through jax.pure_callback; the derivative is not JAX's work, and every gradient
leaves the device for the host and back."""

import jax
import jax.numpy as jnp
import numpy as np


def _unit_on_host(v):
    v = np.asarray(v)
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.where(n > 0, v / np.where(n > 0, n, 1.0), 0.0).astype(v.dtype)


@jax.custom_jvp
def norm(x):
    return jnp.sqrt(jnp.sum(x * x))


@norm.defjvp
def _norm_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    unit = jax.pure_callback(_unit_on_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x,
                             vmap_method="expand_dims")
    return norm(x), jnp.dot(unit, t)
