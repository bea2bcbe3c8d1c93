"""Right, unusually: copies the dict first, then assigns into the copy (the arrays themselves are never changed in place)."""


def sgd_update(params, grads, lr):
    new = dict(params)
    for name in new:
        new[name] = new[name] - lr * grads[name]
    return new
