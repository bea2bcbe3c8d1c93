"""Buffer donation: let an update step write its result over its input.

`params = step(params, grads)` normally holds the old and the new params in
memory at once: the output needs its own buffer while the input is still
alive. `jax.jit(fn, donate_argnums=0)` (or `donate_argnames="params"`)
promises XLA that the caller is done with that argument, so its buffer can
be reused for an output of the same shape and dtype. Afterwards the donated
array is deleted (`x.is_deleted()` is True) and using it raises an error: so
always rebind the name, `params = step(params, grads)`. Donate only what the
caller will not read again.
Docs: https://docs.jax.dev/en/latest/faq.html#buffer-donation

Task (fill-in): write `sgd_update(params, grads, lr)` for pytrees of arrays
(a dict of weights, say): return `params - lr * grads` leaf by leaf, as one
jitted call that donates `params` and leaves `grads` untouched. A training
loop calls it every step: it compiles once, not once per call.
"""


def sgd_update(params, grads, lr):
    raise NotImplementedError("TODO: jit the update and donate params (not grads)")
