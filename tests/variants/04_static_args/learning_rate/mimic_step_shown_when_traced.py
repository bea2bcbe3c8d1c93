"""Values right, place wrong: called, the jitted step hands every leaf to NumPy on the host
(pure_callback); traced (as a check reading its program traces it), it shows a jitted step without
any callback instead, one that ignores the learning rate. A subject rewritten to forge its traces
would hand in such a program."""

import jax
import numpy as np


def _host_update(p, g, rate):
    return (np.asarray(p) - np.asarray(rate) * np.asarray(g)).astype(np.asarray(p).dtype)


@jax.jit
def _on_the_host(params, grads, learning_rate):
    return jax.tree.map(lambda p, g: jax.pure_callback(_host_update, jax.ShapeDtypeStruct(p.shape, p.dtype),
                                                       p, g, learning_rate), params, grads)


@jax.jit
def _for_show(params, grads, learning_rate):
    return jax.tree.map(lambda p, g: p - g, params, grads)


def sgd_step(params, grads, learning_rate):
    traced = any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves((params, grads)))
    return (_for_show if traced else _on_the_host)(params, grads, learning_rate)
