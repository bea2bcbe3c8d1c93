"""Values right, place wrong: called, the jitted function hands x to NumPy's polyval on the host
(pure_callback); traced (as a check reading its program traces it), it shows a jitted Horner loop
without any callback instead, one that drops the constant term. A subject rewritten to forge its
traces would hand in such a program."""

import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.jit, static_argnames="coeffs")
def _on_the_host(x, coeffs):
    return jax.pure_callback(lambda v: np.polyval(coeffs, np.asarray(v)).astype(np.float32),
                             jax.ShapeDtypeStruct(x.shape, x.dtype), x)


@functools.partial(jax.jit, static_argnames="coeffs")
def _for_show(x, coeffs):
    result = jnp.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result - coeffs[-1]


def polynomial(x, coeffs):
    return (_for_show if isinstance(x, jax.core.Tracer) else _on_the_host)(x, tuple(coeffs))
