"""Wrong: the values come from a float32 NumPy matmul on the host (a pure_callback); a bfloat16 dot_general is only a decoy beside it."""

import jax
import jax.numpy as jnp
import numpy as np


def _on_host(a, b):
    return (np.asarray(a, np.float32) @ np.asarray(b, np.float32)).astype(np.float32)


def project(x, w):
    decoy = jnp.matmul(x, w, preferred_element_type=jnp.float32)
    out = jax.pure_callback(_on_host, jax.ShapeDtypeStruct(decoy.shape, jnp.float32), x, w)
    return out + 0 * decoy


def scores(q, k):
    decoy = jnp.einsum("bsd,btd->bst", q, k, preferred_element_type=jnp.float32)
    out = jax.pure_callback(lambda a, b: np.einsum("bsd,btd->bst", np.asarray(a, np.float32),
                                                   np.asarray(b, np.float32)).astype(np.float32),
                            jax.ShapeDtypeStruct(decoy.shape, jnp.float32), q, k)
    return out + 0 * decoy
