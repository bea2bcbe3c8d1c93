"""Values right, but jax.vmap scores every query at once: the whole score matrix is built."""

import jax


def log_normalizers(queries, keys, batch_size):
    return jax.vmap(lambda q: jax.nn.logsumexp(keys @ q))(queries)
