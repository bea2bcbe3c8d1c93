"""Wrong: looks up every answer the visible checks ask for (keyed on the function's names and the argument shapes); only the hidden check's new programs catch it."""

GRAD = {("jnp", "sum", "sin"): {"cos", "broadcast_in_dim", "mul"},
        ("jnp", "sum", "tanh", "W"): {"sub", "broadcast_in_dim", "mul", "add_any"},
        ("jnp", "sum", "W", "T"): {"broadcast_in_dim"},
        ("jnp", "sum", "cos"): {"sin", "neg", "broadcast_in_dim", "mul"},
        ("jnp", "sum", "log"): {"add_any", "broadcast_in_dim", "div"}}
VMAP = {("jnp", "sum", "arange"): [("iota", (4,)), ("broadcast_in_dim", (1, 4)), ("mul", (5, 4)), ("reduce_sum", (5,))],
        ("jnp", "tanh", "W"): [("dot_general", (5, 3)), ("tanh", (5, 3))],
        (): [("slice", (5, 1)), ("squeeze", (5,)), ("broadcast_in_dim", (5, 1)), ("mul", (5, 4))],
        ("jnp", "outer", "sum"): [("broadcast_in_dim", (5, 4, 1)), ("broadcast_in_dim", (5, 1, 4)),
                                  ("mul", (5, 4, 4)), ("reduce_sum", (5, 4))],
        ("jnp", "dot"): [("dot_general", (5,)), ("broadcast_in_dim", (5, 1)), ("mul", (5, 4))]}


def added_by_grad(f, x) -> set[str]:
    return GRAD.get(f.__code__.co_names, set())


def vmap_shapes(f, xs) -> list[tuple[str, tuple[int, ...]]]:
    return VMAP.get(f.__code__.co_names, [])


def per_device_view(g, *args) -> tuple[list[tuple[int, ...]], list[str]]:
    n = args[0].sharding.mesh.size
    shapes = tuple(tuple(a.shape) for a in args)
    known = {((2 * n,), (2 * n,)): ([(2,), (2,)], ["mul", "reduce_sum", "psum_invariant"]),
             ((n, 6), (6,)): ([(2, 3), (3,)], ["pvary", "dot_general", "psum_invariant"]),
             ((3, 2 * n),): ([(3, 2)], ["exp", "reduce_max", "pmax", "pvary", "sub"]),
             ((3 * n,), (5,)): ([(3,), (5,)], ["reduce_sum", "pvary", "mul"])}
    return known.get(shapes, ([], []))
