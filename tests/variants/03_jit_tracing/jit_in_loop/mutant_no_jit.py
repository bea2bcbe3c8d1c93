"""Wrong: no recompiles because nothing is compiled: every step runs op by op."""


def sgd_step(w, grad, lr):
    return w - lr * grad


def train(w, grads, lr):
    for grad in grads:
        w = sgd_step(w, grad, lr)
    return w
