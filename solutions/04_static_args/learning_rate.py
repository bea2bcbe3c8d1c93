"""Reference solution for static-3: let the learning rate be traced."""

import jax


# learning_rate is an ordinary (traced) argument: a float32 scalar to the
# compiled program, so each new value reuses the one program.
@jax.jit
def sgd_step(params: dict, grads: dict, learning_rate: float) -> dict:
    return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
