"""Values right, precision wrong: the squared errors summed over the rows inside a bfloat16 Gram matrix
(err.T @ err), only its diagonal of already rounded sums added in float32."""
import jax
import jax.numpy as jnp

COMPUTE = jnp.bfloat16


def loss_fn(params, x, y):
    w, b = params["w"].astype(COMPUTE), params["b"].astype(COMPUTE)
    pred = x.astype(COMPUTE) @ w + b
    err = pred - y.astype(COMPUTE)
    # sum of squares per output column as a (bf16) Gram matrix; its diagonal summed in float32
    gram = err.T @ err
    return jnp.sum(gram[jnp.arange(gram.shape[0]), jnp.arange(gram.shape[0])].astype(jnp.float32)) / err.size


@jax.jit
def train_step(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)
