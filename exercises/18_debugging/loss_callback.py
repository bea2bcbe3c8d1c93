"""jax.debug.callback: hand the real values to host code, on every call.

Under jit your Python body runs once, with tracers, to record the program;
later calls replay the compiled program and never run the body again. So a
Python side effect inside a jitted step (appending to a list, logging) runs
once, while tracing, and keeps a tracer instead of a value.
`jax.debug.callback(fn, *args)` puts a call to `fn` into the program itself:
on every run, `fn` gets the actual values (arrays on the host). It returns
nothing, and the compiler keeps it although no output depends on it. Under
`jax.vmap`, `fn` runs once per example, each time with that example's
values, in no fixed order (`ordered=True` keeps program order).
Docs: https://docs.jax.dev/en/latest/debugging.html

Task (fix-it): `sgd_step(w, x, y)` must hand its loss to `record_loss` on
every call, with the loss's value, and stay compiled once; mapped with
jax.vmap over a batch of data sets, it must record every data set's loss.
Call `record_loss` through a host callback inside the program:
`jax.debug.callback` (or an unordered `jax.experimental.io_callback`), and
keep `jax.pure_callback` out of the step: JAX may drop, repeat or batch a
pure callback, so none may carry a side effect.
"""

import jax
import jax.numpy as jnp

LR = 0.1
LOSSES = []  # one entry per step (and per data set under vmap)


def record_loss(loss):
    LOSSES.append(loss)


def _loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(_loss)(w, x, y)
    record_loss(loss)
    return w - LR * grad
