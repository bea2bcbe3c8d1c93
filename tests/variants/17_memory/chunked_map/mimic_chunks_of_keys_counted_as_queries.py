"""Values right, chunking wrong: a running logsumexp over chunks of the keys (every query's running max,
from -inf, and sum carried), as many chunks as the queries would take, with a (chunks, keys) mask in the
loop's body: the loop length matches and a slice the size of the keys appears, yet no chunk of queries."""
import jax
import jax.numpy as jnp
from jax import lax


def log_normalizers(queries, keys, batch_size):
    nq, nk = queries.shape[0], keys.shape[0]
    n_chunks = -(-nq // batch_size)
    size = -(-nk // n_chunks)
    padded = jnp.pad(keys, ((0, n_chunks * size - nk), (0, 0)))
    owner = jnp.arange(n_chunks * size) // size

    def step(carry, i):
        top, total = carry
        onehot = owner[None, :nk] == jnp.arange(n_chunks)[:, None]          # (n_chunks, nk) ownership
        valid = lax.dynamic_slice(jnp.pad(onehot[i], (0, n_chunks * size - nk)), (i * size,), (size,))
        block = lax.dynamic_slice(padded, (i * size, 0), (size, keys.shape[1]))
        s = jnp.where(valid[None, :], queries @ block.T, -jnp.inf)
        new_top = jnp.maximum(top, s.max(axis=1))
        total = total * jnp.exp(top - new_top) + jnp.exp(s - new_top[:, None]).sum(axis=1)
        return (new_top, total), None

    init = (jnp.full(nq, -jnp.inf, queries.dtype), jnp.zeros(nq, queries.dtype))
    (top, total), _ = lax.scan(step, init, jnp.arange(n_chunks))
    return top + jnp.log(total)
