"""Values right, place wrong: called, the jitted function hands x to NumPy on the host
(pure_callback), which negates it; traced (as a check reading its program traces it), it shows a
jitted program without any callback instead, one that never negates. A subject rewritten to forge
its traces would hand in such a program."""

from functools import partial

import jax
import numpy as np


def _host_sign(x, neg):
    return -np.asarray(x) if neg else np.asarray(x)


@partial(jax.jit, static_argnames="neg")
def _on_the_host(x, neg):
    return jax.pure_callback(partial(_host_sign, neg=neg), jax.ShapeDtypeStruct(x.shape, x.dtype), x)


@jax.jit
def _for_show(x):
    return x * 1


def apply_sign(x, neg):
    return _for_show(x) if isinstance(x, jax.core.Tracer) else _on_the_host(x, neg)
