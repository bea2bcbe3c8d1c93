"""Wrong: a jax.jit(lambda ...) per iteration is a new function each step, so each step recompiles."""

import jax


def sgd_step(w, grad, lr):
    return w - lr * grad


def train(w, grads, lr):
    for grad in grads:
        w = jax.jit(lambda w, g: sgd_step(w, g, lr))(w, grad)
    return w
