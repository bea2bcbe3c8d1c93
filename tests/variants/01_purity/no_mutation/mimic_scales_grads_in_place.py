"""Values right, idea skipped: reuses the caller's grads dict as scratch space, so the caller's gradients are changed."""


def sgd_update(params, grads, lr):
    for name in grads:
        grads[name] = lr * grads[name]
    return {name: value - grads[name] for name, value in params.items()}
