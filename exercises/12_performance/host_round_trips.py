"""Host round trips: keep per-step values on the device.

`float(x)`, `x.item()`, `np.asarray(x)` and `print(x)` copy a device value to
the host, and must first wait until it is computed. In a training loop that
stalls every step: Python waits, the device idles, and the next step cannot
be queued ahead (async dispatch). Turning the numbers back into an array
(`jnp.array(list_of_floats)`) copies them host-to-device again. Keep each
step's values as jax.Arrays and convert once, at the end, if at all. Code
written this way also runs under `jax.jit`, where a host copy is impossible.
Docs: https://docs.jax.dev/en/latest/transfer_guard.html
      https://docs.jax.dev/en/latest/async_dispatch.html

Task (fix-it): `train(w, batches)` runs one SGD step per (x, y) batch and
returns the final weights and a jax.Array of the per-step losses. Every
step, it pulls the loss to the host. Remove the round trip so `train` runs
with `jax.transfer_guard("disallow")` on and under `jax.jit`, with the same
results. Keep `sgd_step` and both signatures.
"""

import jax
import jax.numpy as jnp

LEARNING_RATE = 0.1


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    return w - LEARNING_RATE * grad, loss


def train(w, batches):
    losses = []
    for x, y in batches:
        w, loss = sgd_step(w, x, y)
        losses.append(float(loss))  # for the training log
    return w, jnp.array(losses)
