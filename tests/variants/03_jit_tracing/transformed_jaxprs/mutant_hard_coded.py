"""Wrong: looks the visible answers up by the program's forward primitives and shapes instead of reading each program."""

import jax

GRAD = {("sin", "reduce_sum"): {"cos", "broadcast_in_dim", "mul"},
        ("dot_general", "tanh", "reduce_sum"): {"sub", "broadcast_in_dim", "mul", "add_any"},
        ("transpose", "dot_general", "reduce_sum"): {"broadcast_in_dim"},
        ("dot_general", "reduce_sum"): {"broadcast_in_dim"},
        ("cos", "reduce_sum", "integer_pow"): {"sin", "neg", "broadcast_in_dim", "mul"}}


def added_by_grad(f, x):
    return set(GRAD.get(tuple(e.primitive.name for e in jax.make_jaxpr(f)(x).eqns), set()))


def vmap_shapes(f, xs):
    per_example = [e.primitive.name for e in jax.make_jaxpr(f)(xs[0]).eqns]
    table = {
        ("iota", "mul", "reduce_sum"): [("iota", (4,)), ("broadcast_in_dim", (1, 4)), ("mul", (5, 4)),
                                        ("reduce_sum", (5,))],
        ("dot_general", "tanh"): [("dot_general", (5, 3)), ("tanh", (5, 3))],
        ("slice", "squeeze", "mul"): [("slice", (5, 1)), ("squeeze", (5,)), ("broadcast_in_dim", (5, 1)),
                                      ("mul", (5, 4))],
    }
    return table.get(tuple(per_example), [("broadcast_in_dim", (5, 4, 1)), ("broadcast_in_dim", (5, 1, 4)),
                                          ("mul", (5, 4, 4)), ("reduce_sum", (5, 4))])


def per_device_view(g, *args):
    n = jax.device_count()
    shapes = [tuple(a.shape) for a in args]
    if len(args) == 2 and len(shapes[0]) == 1:
        return [(2,), (2,)], ["mul", "reduce_sum", "psum_invariant"]
    if len(args) == 2:
        return [(2, 3), (3,)], ["pvary", "dot_general", "psum_invariant"]
    return [(3, 2)], ["exp", "reduce_max", "pmax", "pvary", "sub"]
