"""Mixed precision: float32 master weights, bfloat16 compute, float32 sums.

bfloat16 keeps float32's range but only 8 bits of mantissa (about 3 decimal
digits): half the memory and, on TPUs and recent GPUs, much faster matmuls.
The usual recipe: keep the parameters in float32 (the *master* copy: near
1.0 bfloat16 values are 2**-7 apart, so an update of 1e-3 would vanish),
cast parameters and inputs to bfloat16 for the forward pass, and take long
sums such as the loss's mean in float32. The gradient of a cast is a cast
back, so jax.grad returns float32 gradients for float32 parameters while the
backward matmuls run in bfloat16 too. Careful: `jnp.mean` of a bfloat16
array sums in float32 internally but rounds its result back to bfloat16;
`jnp.mean(x, dtype=jnp.float32)` (or a cast first) keeps float32.
Docs: https://docs.jax.dev/en/latest/type_promotion.html
      https://docs.jax.dev/en/latest/_autosummary/jax.numpy.mean.html

Task (fill-in): `loss_fn(params, x, y)` is the mean squared error of
x @ params["w"] + params["b"], with the matmul and bias add in bfloat16 and
the mean (its sum) taken and returned in float32; the residual and its square
may be computed in either dtype. `train_step(params, x, y, lr)` is one SGD step
on float32 params with the gradient jax.grad takes of loss_fn, returned in
float32. Keep names and signatures.
"""

import jax
import jax.numpy as jnp


def loss_fn(params: dict, x: jax.Array, y: jax.Array) -> jax.Array:
    raise NotImplementedError("TODO: cast to bfloat16 for the matmul and bias, then the mean in float32")


def train_step(params: dict, x: jax.Array, y: jax.Array, lr: float) -> dict:
    raise NotImplementedError("TODO: one SGD step with the gradient of loss_fn, params kept in float32")
