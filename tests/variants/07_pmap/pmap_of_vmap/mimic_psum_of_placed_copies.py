"""Mimic: each device psums one-hot-placed copies of every batch (a gather by psum), computes all, keeps its own."""
import jax
import jax.numpy as jnp
from jax import lax


def affine(a, b, c):
    return a @ b + c


def affine_everywhere(a, b, c):
    n = jax.device_count()
    def body(a, b, c):
        i = lax.axis_index("i")
        g = lambda v: lax.psum(jnp.zeros((n,) + v.shape, v.dtype).at[i].set(v), "i")
        every = jax.vmap(jax.vmap(affine))(g(a), g(b), g(c))
        return every[i]
    return jax.pmap(body, axis_name="i")(a, b, c)
