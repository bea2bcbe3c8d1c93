"""bfloat16 products, float32 sums: preferred_element_type.

A matmul of bfloat16 operands returns bfloat16 by default: each output, a
long sum of products, is rounded to 8 bits of mantissa, and
`(a @ b).astype(jnp.float32)` only widens what was already rounded.
`preferred_element_type=jnp.float32` (on `lax.dot_general`, `jnp.dot`,
`jnp.matmul`, `jnp.einsum`) asks for the products to be accumulated and
returned in float32 while the operands stay bfloat16: the jaxpr's
dot_general shows bf16 inputs and an f32 output, and so does the lowered
HLO (`(tensor<...xbf16>, tensor<...xbf16>) -> tensor<...xf32>`). Converting
the operands to float32 first gives the same numbers, but moves and
multiplies twice the bytes and skips the bfloat16 matrix units of TPUs and
GPUs.
Docs: https://docs.jax.dev/en/latest/_autosummary/jax.lax.dot_general.html
      https://docs.jax.dev/en/latest/_autosummary/jax.numpy.matmul.html

Task (fill-in): for bfloat16 inputs, `project(x, w)` returns x @ w and
`scores(q, k)` returns q @ k^T for each batch entry, both as float32
accumulated in float32 from bfloat16 operands. Keep names and signatures.
"""

import jax


def project(x: jax.Array, w: jax.Array) -> jax.Array:
    """x: (n, d), w: (d, m), both bfloat16 -> (n, m) float32."""
    raise NotImplementedError("TODO: multiply the bfloat16 operands, accumulating in float32")


def scores(q: jax.Array, k: jax.Array) -> jax.Array:
    """q: (b, s, d), k: (b, t, d), both bfloat16 -> (b, s, t) float32: out[i] = q[i] @ k[i].T."""
    raise NotImplementedError("TODO: batched q @ k^T on bfloat16 operands, accumulating in float32")
