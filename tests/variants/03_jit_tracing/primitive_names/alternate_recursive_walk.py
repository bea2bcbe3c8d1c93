"""Right, unusually: walks the jaxpr with a generator, descending into nested jaxprs (none here)."""

import jax
import jax.extend


def _walk(jaxpr):
    for eqn in jaxpr.eqns:
        subs = list(jax.extend.core.jaxprs_in_params(eqn.params))
        if subs:
            for sub in subs:
                yield from _walk(sub)
        else:
            yield eqn.primitive.name


def primitive_names(f, *args):
    return tuple(_walk(jax.make_jaxpr(f)(*args).jaxpr))
