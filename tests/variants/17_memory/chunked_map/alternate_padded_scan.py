"""Right, another route: pads the queries up to a whole number of chunks, scans over the chunks (each
a (batch_size, len(keys)) score block reduced with logsumexp), then drops the padding rows. The loop
runs ceil(len(queries) / batch_size) times and no remainder is left after it."""

import jax
import jax.numpy as jnp
from jax import lax


def log_normalizers(queries, keys, batch_size):
    n = queries.shape[0]
    chunks = -(-n // batch_size)
    padded = jnp.pad(queries, ((0, chunks * batch_size - n), (0, 0)))

    def chunk(_, block):
        return None, jax.nn.logsumexp(block @ keys.T, axis=1)

    _, out = lax.scan(chunk, None, padded.reshape(chunks, batch_size, -1))
    return out.reshape(-1)[:n]
