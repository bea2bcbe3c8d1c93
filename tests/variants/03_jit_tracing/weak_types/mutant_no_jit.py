"""Wrong: no recompiles because nothing is compiled: the update runs op by op."""


def apply_update(w, grad, lr):
    return w - lr * grad
