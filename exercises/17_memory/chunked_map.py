"""lax.map with batch_size: bound the memory of a batched computation.

jax.vmap computes a whole batch at once: every intermediate gets the batch
axis, so scoring 4096 queries against 100_000 keys builds a 4096 × 100_000
score matrix before anything is reduced. lax.map(f, xs) is the other extreme:
a loop (a scan) over xs one element at a time, little memory but nothing
vectorised. lax.map(f, xs, batch_size=b) sits between them: a loop over
chunks of b elements, each chunk vmapped, so only a b-row slice of every
intermediate is alive at once; rows that do not fill a last chunk are handled
after the loop. A Python loop over chunks unrolls into the program instead: one
copy of the work per chunk, and XLA may keep all their buffers.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.lax.map.html

Task (fill-in): `log_normalizers(queries, keys, batch_size)` returns, for each
query row q, logsumexp(keys @ q) (the log of a softmax's denominator), shape
(len(queries),). Compute it with a loop in the program over chunks of
`batch_size` query rows (a Python int), so no (len(queries), len(keys)) score
matrix is ever built: lax.map with its `batch_size=` argument is that loop (a
scan or fori_loop over the chunks you write yourself is fine too, with a last
short chunk handled after it or padded to full size). Keep the signature.
"""

import jax
import jax.numpy as jnp
from jax import lax


def log_normalizers(queries, keys, batch_size):
    raise NotImplementedError("TODO: lax.map a one-query function over queries with batch_size=batch_size")
