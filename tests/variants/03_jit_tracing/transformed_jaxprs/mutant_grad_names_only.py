"""Wrong: lists every primitive in grad's program, the forward ones included, not just those grad added."""

import jax


def added_by_grad(f, x):
    return {eqn.primitive.name for eqn in jax.make_jaxpr(jax.grad(f))(x).eqns}


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
    body = _find(jax.make_jaxpr(g)(*args).jaxpr).params["jaxpr"]
    return [tuple(v.aval.shape) for v in body.invars], [e.primitive.name for e in body.eqns]
