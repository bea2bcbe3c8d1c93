"""Values right, idea skipped: called, the jitted function hands the rewards and n to NumPy on the
host (pure_callback); traced (as a check reading its program traces it), it shows a jitted masked sum
with no callback, one that leaves out the discount. A subject rewritten to forge its traces would hand
in such a program."""

import jax
import jax.numpy as jnp
import numpy as np

GAMMA = 0.9


def _host_return(rewards, n):
    rewards, n = np.asarray(rewards), int(n)
    return np.float32(np.sum(rewards[:n] * GAMMA ** np.arange(n)))


@jax.jit
def _on_host(rewards, n):
    return jax.pure_callback(_host_return, jax.ShapeDtypeStruct((), jnp.float32), rewards, n)


@jax.jit
def _for_show(rewards, n):
    return jnp.sum(jnp.where(jnp.arange(rewards.shape[0]) < n, rewards, 0.0))


def n_step_return(rewards, n):
    return (_for_show if isinstance(rewards, jax.core.Tracer) else _on_host)(rewards, n)
