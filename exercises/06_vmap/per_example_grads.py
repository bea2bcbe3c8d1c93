"""Per-example gradients: vmap a grad.

`jax.grad(loss)` differentiates the loss of one example. Mapping it with
`jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))` gives one gradient per
example in a single vectorized program: the parameters are shared (None),
the examples and labels are mapped (0). Each leaf of the result gains a
leading batch axis. (`grad` of a batch-mean loss gives only their average.)
Docs: https://docs.jax.dev/en/latest/automatic-vectorization.html

Task (fill-in): `loss(params, x, y)` is one example's squared error for a
linear model with params {"w": (d,), "b": ()}. Write
`per_example_grads(params, xs, ys)` for xs of shape (batch, d) and ys of
shape (batch,), returning a dict like params where grads["w"] has shape
(batch, d) and grads["b"] shape (batch,), row i being the gradient of
`loss(params, xs[i], ys[i])`. No Python loop, params never copied per
example, and no batch-by-batch work (a reverse-mode Jacobian of every
example's loss at once builds a batch x batch array). Keep both signatures.
"""

import jax
import jax.numpy as jnp


def loss(params: dict, x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    return (jnp.dot(params["w"], x) + params["b"] - y) ** 2


def per_example_grads(params: dict, xs: jnp.ndarray, ys: jnp.ndarray) -> dict:
    raise NotImplementedError("TODO: vmap jax.grad(loss) over the examples, params shared")
