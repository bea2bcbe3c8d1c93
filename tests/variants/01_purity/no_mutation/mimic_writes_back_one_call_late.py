"""Values right, idea skipped: returns a fresh dict, but keeps the caller's dict and writes that call's
result into it during the next call. Each call's result is right and each dict is untouched when its
call returns; a caller's dict changes under its feet one call later."""

_pending = []


def sgd_update(params, grads, lr):
    new = {name: params[name] - lr * grads[name] for name in params}
    while _pending:  # the previous call's write-back into its caller's dict
        old_params, old_new = _pending.pop()
        for name in old_new:
            old_params[name] = old_new[name]
    _pending.append((params, new))
    return dict(new)
