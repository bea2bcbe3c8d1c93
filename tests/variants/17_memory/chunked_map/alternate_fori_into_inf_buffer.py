"""Right, unusually: a fori_loop over whole chunks of batch_size queries writing into an output buffer
started at -inf, the short last chunk handled after the loop."""
import jax
import jax.numpy as jnp
from jax import lax


def log_normalizers(queries, keys, batch_size):
    n = queries.shape[0]
    chunks = n // batch_size

    def body(i, out):
        block = lax.dynamic_slice_in_dim(queries, i * batch_size, batch_size)
        return lax.dynamic_update_slice_in_dim(out, jax.nn.logsumexp(block @ keys.T, axis=1), i * batch_size, 0)

    out = lax.fori_loop(0, chunks, body, jnp.full((n,), -jnp.inf, queries.dtype))
    rest = queries[chunks * batch_size:]
    if rest.shape[0]:
        out = out.at[chunks * batch_size:].set(jax.nn.logsumexp(rest @ keys.T, axis=1))
    return out
