"""Values right, tool wrong: the derivative by forward-mode dual numbers pushed through f's jaxpr
(jax.make_jaxpr) with a derivative table written by hand; jax.grad and jax.jvp are never called. It
follows any f built from the operations in its table, but not a rule JAX was given (jax.custom_jvp)."""
import jax
import jax.numpy as jnp
from jax import lax


def f(x):
    return 2 * x**2 + 3 * x + 3


_RULES = {
    "add": lambda a, b, da, db, p: (a + b, da + db),
    "sub": lambda a, b, da, db, p: (a - b, da - db),
    "mul": lambda a, b, da, db, p: (a * b, da * b + a * db),
    "div": lambda a, b, da, db, p: (a / b, (da * b - a * db) / (b * b)),
    "neg": lambda a, da, p: (-a, -da),
    "sin": lambda a, da, p: (jnp.sin(a), jnp.cos(a) * da),
    "cos": lambda a, da, p: (jnp.cos(a), -jnp.sin(a) * da),
    "exp": lambda a, da, p: (jnp.exp(a), jnp.exp(a) * da),
    "log": lambda a, da, p: (jnp.log(a), da / a),
    "tanh": lambda a, da, p: (jnp.tanh(a), (1 - jnp.tanh(a) ** 2) * da),
    "round": lambda a, da, p: (jnp.round(a), jnp.zeros_like(da)),
    "integer_pow": lambda a, da, p: (a ** p["y"], p["y"] * a ** (p["y"] - 1) * da),
    "convert_element_type": lambda a, da, p: (a.astype(p["new_dtype"]), da.astype(p["new_dtype"])),
}


def _run(jaxpr, consts, args, dargs):
    env = {}
    def read(v):
        if hasattr(v, "val"):
            return v.val, jnp.zeros_like(v.val)
        return env[v]
    for v, c in zip(jaxpr.constvars, consts):
        env[v] = (c, jnp.zeros_like(c))
    for v, a, d in zip(jaxpr.invars, args, dargs):
        env[v] = (a, d)
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        name = eqn.primitive.name
        if name in ("pjit", "jit", "custom_jvp_call"):
            inner = eqn.params["jaxpr" if "jaxpr" in eqn.params else "call_jaxpr"]
            outs = _run(inner.jaxpr, inner.consts, [a for a, _ in ins], [d for _, d in ins])
        else:
            vals, tans = [a for a, _ in ins], [d for _, d in ins]
            outs = [_RULES[name](*vals, *tans, eqn.params)]
        for v, o in zip(eqn.outvars, outs):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


def _dual(x):
    x = jnp.asarray(x, dtype=jnp.result_type(float))
    closed = jax.make_jaxpr(lambda v: f(v))(x)
    (value, slope), = _run(closed.jaxpr, closed.consts, [x], [jnp.ones_like(x)])
    return value, slope


def df(x):
    return _dual(x)[1]


def f_and_df(x):
    return _dual(x)
