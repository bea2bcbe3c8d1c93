"""Wrong: pure, but it climbs the gradient (`+`) instead of descending it."""


def sgd_update(params, grads, lr):
    return {name: value + lr * grads[name] for name, value in params.items()}
