"""Mimic: each device all_gathers every signal and filter, convolves them all, keeps its own row."""
import jax
import jax.numpy as jnp
from jax import lax


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_per_device(xs, ws):
    def body(x, w):
        every = jax.vmap(convolve)(lax.all_gather(x, "i"), lax.all_gather(w, "i"))
        return every[lax.axis_index("i")]
    return jax.pmap(body, axis_name="i")(xs, ws)
