"""Mimic: each device all_gathers every batch, computes them all, keeps its own."""
import jax
import jax.numpy as jnp
from jax import lax


def affine(a, b, c):
    return a @ b + c


def affine_everywhere(a, b, c):
    def body(a, b, c):
        g = lambda v: lax.all_gather(v, "i")
        every = jax.vmap(jax.vmap(affine))(g(a), g(b), g(c))
        return every[lax.axis_index("i")]
    return jax.pmap(body, axis_name="i")(a, b, c)
