"""Right, unusually: jnp under jax.ensure_compile_time_eval() runs eagerly while tracing, giving constants."""

import jax
import jax.numpy as jnp


@jax.jit
def power_spectrum(frames):
    n = frames.shape[-1]
    with jax.ensure_compile_time_eval():
        k = jnp.arange(n)
        angles = 2 * jnp.pi * ((k[:, None] * k[None, :]) % n) / n
        cos, sin = jnp.cos(angles), jnp.sin(angles)
    return (frames @ cos) ** 2 + (frames @ sin) ** 2
