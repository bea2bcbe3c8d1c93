"""Values and memory right, loop wrong: an online logsumexp over chunks of batch_size keys, a running
max and sum for every query: memory is bounded, but the task chunks the query rows (lax.map with
batch_size), each chunk scored against all the keys."""

import jax
import jax.numpy as jnp
from jax import lax


def log_normalizers(queries, keys, batch_size):
    # Online logsumexp over chunks of keys: a running max and sum per query.
    n_chunks = keys.shape[0] // batch_size
    blocks = keys[: n_chunks * batch_size].reshape(n_chunks, batch_size, -1)

    def step(carry, block):
        top, total = carry
        s = queries @ block.T
        new_top = jnp.maximum(top, s.max(axis=1))
        total = total * jnp.exp(top - new_top) + jnp.exp(s - new_top[:, None]).sum(axis=1)
        return (new_top, total), None

    init = (jnp.full(queries.shape[0], -jnp.inf), jnp.zeros(queries.shape[0]))
    (top, total), _ = lax.scan(step, init, blocks)
    rest = queries @ keys[n_chunks * batch_size:].T
    new_top = jnp.maximum(top, rest.max(axis=1, initial=-jnp.inf))
    total = total * jnp.exp(top - new_top) + jnp.exp(rest - new_top[:, None]).sum(axis=1)
    return new_top + jnp.log(total)
