"""Wrong: `new = params` is the same dict under another name, so the caller's dict still changes."""


def sgd_update(params, grads, lr):
    new = params
    for name in params:
        new[name] = params[name] - lr * grads[name]
    return new
