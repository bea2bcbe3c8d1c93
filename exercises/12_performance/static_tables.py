"""Static vs traced: build constant tables with NumPy, at trace time.

Under `jax.jit`, every `jnp` call becomes part of the traced program, even
when its inputs are only Python numbers and shapes. A table that depends
only on shapes (a DFT matrix, a window, positional codes) built with `jnp`
is recomputed by the program on every call, or left for XLA to fold at
compile time (slowly, for big tables). Shapes are static, so `numpy` can
build the same table once, while tracing: it enters the program as a ready
constant. Rule of thumb: `np` for what is static, `jnp` for what is traced.
Docs: https://docs.jax.dev/en/latest/tracing.html
      https://docs.jax.dev/en/latest/jit-compilation.html

Task (fix-it): `power_spectrum(frames)` returns |DFT|^2 of each row and
rebuilds its cosine and sine tables inside the program. Make the traced
program hold the tables as constants instead of the trig that builds them.
Same results, still from the frames times the tables (an FFT is another
lesson); keep it jitted and keep the signature.
"""

import jax
import jax.numpy as jnp


@jax.jit
def power_spectrum(frames):
    n = frames.shape[-1]
    k = jnp.arange(n)
    angles = 2 * jnp.pi * jnp.outer(k, k) / n
    real = frames @ jnp.cos(angles)
    imag = frames @ jnp.sin(angles)
    return real**2 + imag**2
