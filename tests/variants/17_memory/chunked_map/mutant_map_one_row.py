"""Wrong: lax.map without batch_size loops over the queries one at a time, nothing vectorised."""

import jax
from jax import lax


def log_normalizers(queries, keys, batch_size):
    return lax.map(lambda q: jax.nn.logsumexp(keys @ q), queries)
