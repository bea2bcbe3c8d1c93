"""Wrong: right answers, but the per-device shapes come from compiling the program and parsing XLA's output."""

import re

import jax


def added_by_grad(f, x):
    names = lambda p: {eqn.primitive.name for eqn in p.eqns}
    return names(jax.make_jaxpr(jax.grad(f))(x)) - names(jax.make_jaxpr(f)(x))


def vmap_shapes(f, xs):
    return [(e.primitive.name, tuple(e.outvars[0].aval.shape)) for e in jax.make_jaxpr(jax.vmap(f))(xs).eqns]


def _find(jaxpr):
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "shard_map":
            return eqn
        for value in eqn.params.values():
            inner = getattr(value, "jaxpr", value)
            if hasattr(inner, "eqns") and (found := _find(inner)) is not None:
                return found
    return None


def per_device_view(g, *args):
    text = jax.jit(g).lower(*args).compile().as_text()
    entry = text[text.find("ENTRY"):].split("\n}\n")[0]
    params = sorted((int(i), tuple(int(d) for d in dims.split(",") if d))
                    for dims, i in re.findall(r"=\s*\w+\[([0-9,]*)\][^\n]*?parameter\((\d+)\)", entry))
    body = _find(jax.make_jaxpr(g)(*args).jaxpr).params["jaxpr"]
    return [shape for _, shape in params], [e.primitive.name for e in body.eqns]
