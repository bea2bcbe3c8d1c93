"""Wrong: traces f on one example and puts the batch axis in front of every shape, as if vmap looped over examples."""

import jax


def added_by_grad(f, x):
    names = lambda p: {eqn.primitive.name for eqn in p.eqns}
    return names(jax.make_jaxpr(jax.grad(f))(x)) - names(jax.make_jaxpr(f)(x))


def vmap_shapes(f, xs):
    program = jax.make_jaxpr(f)(xs[0])
    return [(e.primitive.name, (xs.shape[0],) + tuple(e.outvars[0].aval.shape)) for e in program.eqns]


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
    body = _find(jax.make_jaxpr(g)(*args).jaxpr).params["jaxpr"]
    return [tuple(v.aval.shape) for v in body.invars], [e.primitive.name for e in body.eqns]
