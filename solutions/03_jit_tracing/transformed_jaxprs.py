"""Reference solution for jit-10: trace each transformed function and read its equations."""

import jax


def _names(closed_jaxpr):
    return [eqn.primitive.name for eqn in closed_jaxpr.eqns]


def added_by_grad(f, x) -> set[str]:
    forward = jax.make_jaxpr(f)(x)
    backward = jax.make_jaxpr(jax.grad(f))(x)
    return set(_names(backward)) - set(_names(forward))


def vmap_shapes(f, xs) -> list[tuple[str, tuple[int, ...]]]:
    program = jax.make_jaxpr(jax.vmap(f))(xs)
    return [(eqn.primitive.name, tuple(eqn.outvars[0].aval.shape)) for eqn in program.eqns]


def _find_shard_map(jaxpr):
    """Depth-first: the first shard_map equation, looking inside nested programs (jit, ...) too."""
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "shard_map":
            return eqn
        for value in eqn.params.values():
            inner = getattr(value, "jaxpr", value)  # a ClosedJaxpr wraps a Jaxpr
            if hasattr(inner, "eqns"):
                found = _find_shard_map(inner)
                if found is not None:
                    return found
    return None


def per_device_view(g, *args) -> tuple[list[tuple[int, ...]], list[str]]:
    eqn = _find_shard_map(jax.make_jaxpr(g)(*args).jaxpr)
    body = eqn.params["jaxpr"]
    return [tuple(v.aval.shape) for v in body.invars], [e.primitive.name for e in body.eqns]
