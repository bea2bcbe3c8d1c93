"""Values right, tool wrong: train_step's gradient by forward-mode dual numbers pushed through
loss_fn's jaxpr (jax.make_jaxpr), one pass per parameter entry (vmapped seeds), with derivative rules
written by hand; jax.grad is never called. It follows any loss built from the operations it knows, but
not a rule JAX was given (jax.custom_jvp)."""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def loss_fn(params, x, y):
    pred = jnp.dot(x.astype(jnp.bfloat16), params["w"].astype(jnp.bfloat16)) + params["b"].astype(jnp.bfloat16)
    err = pred.astype(jnp.float32) - y
    return jnp.mean(err ** 2, dtype=jnp.float32)


_LINEAR = {"add", "sub", "neg", "reduce_sum", "broadcast_in_dim", "reshape", "convert_element_type",
           "transpose", "squeeze", "expand_dims", "copy", "copy_p", "add_any", "split", "concatenate", "slice"}


def _tangent(eqn, vals, tans, outs):
    n, p = eqn.primitive.name, eqn.params
    b = lambda *a: eqn.primitive.bind(*a, **p)
    if n in _LINEAR:
        return b(*tans)
    if n == "round": return jnp.zeros_like(outs)
    if n == "mul":
        return tans[0] * vals[1] + vals[0] * tans[1]
    if n == "dot_general":
        return b(tans[0], vals[1]) + b(vals[0], tans[1])
    if n == "div":
        return (tans[0] * vals[1] - vals[0] * tans[1]) / (vals[1] * vals[1])
    if n == "integer_pow":
        return (p["y"] * vals[0] ** (p["y"] - 1) * tans[0]).astype(outs.dtype)
    raise NotImplementedError(n)


def _run(jaxpr, consts, args, dargs):
    env = {}
    read = lambda v: (v.val, jnp.zeros_like(v.val)) if hasattr(v, "val") else env[v]
    for v, c in zip(jaxpr.constvars, consts):
        env[v] = (c, jnp.zeros_like(c))
    for v, a, d in zip(jaxpr.invars, args, dargs):
        env[v] = (a, d)
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        vals, tans = [a for a, _ in ins], [d for _, d in ins]
        if eqn.primitive.name in ("pjit", "jit", "custom_jvp_call"):
            inner = eqn.params.get("jaxpr") or eqn.params["call_jaxpr"]
            res = _run(inner.jaxpr, inner.consts, vals, tans)
        else:
            out = eqn.primitive.bind(*vals, **eqn.params)
            tan = _tangent(eqn, vals, tans, out)
            res = list(zip(out, tan)) if eqn.primitive.multiple_results else [(out, tan)]
        for v, o in zip(eqn.outvars, res):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


def train_step(params, x, y, lr):
    flat, unravel = ravel_pytree(params)
    closed = jax.make_jaxpr(lambda f: loss_fn(unravel(f), x, y))(flat)

    def directional(seed):
        (_, t), = _run(closed.jaxpr, closed.consts, [flat], [seed])
        return t

    grad = jax.vmap(directional)(jnp.eye(flat.size, dtype=flat.dtype))
    return unravel(flat - lr * grad)
