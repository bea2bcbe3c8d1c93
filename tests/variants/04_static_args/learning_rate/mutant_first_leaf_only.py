"""Wrong: assumes params is a flat dict of arrays and steps only its dict values, so nested lists and tuples break."""

import jax


@jax.jit
def sgd_step(params, grads, learning_rate):
    return {k: v - learning_rate * grads[k] if not isinstance(v, (list, tuple)) else v for k, v in params.items()}
