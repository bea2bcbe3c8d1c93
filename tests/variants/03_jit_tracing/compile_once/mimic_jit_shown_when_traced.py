"""Values right, idea skipped: called, a jitted pure_callback hands the work to NumPy on the host;
traced (as a check reading its program traces it), it shows a jitted program with no callback, one
that hands back x unnormalised. A subject rewritten to forge its traces would hand in such a program."""

import jax
import numpy as np

EPS = 1e-6


def _host(x):
    x = np.asarray(x)
    return (x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + EPS)).astype(x.dtype)


@jax.jit
def _on_host(x):
    return jax.pure_callback(_host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


@jax.jit
def _for_show(x):
    return x * 1.0


def rms_norm(x):
    return (_for_show if isinstance(x, jax.core.Tracer) else _on_host)(x)
