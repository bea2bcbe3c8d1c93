"""Values right, precision plan wrong: called, the operands are converted to float32 before the matmul
(twice the bytes, no bfloat16 units); traced (as a check reading its program traces it), it shows
bfloat16 operands with a float32 accumulator instead, in a matmul of the operands' reverse order of
rows: right dtypes, other values."""

import jax
import jax.numpy as jnp


def project(x, w):
    if isinstance(x, jax.core.Tracer):
        return jnp.matmul(x[::-1], w, preferred_element_type=jnp.float32)
    return x.astype(jnp.float32) @ w.astype(jnp.float32)


def scores(q, k):
    if isinstance(q, jax.core.Tracer):
        return jnp.einsum("bsd,btd->bst", q[:, ::-1], k, preferred_element_type=jnp.float32)
    return jnp.einsum("bsd,btd->bst", q.astype(jnp.float32), k.astype(jnp.float32))
