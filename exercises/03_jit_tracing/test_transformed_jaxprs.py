"""Checks for jit-10 (transformed_jaxprs)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

X = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
W = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
XS = np.linspace(0.5, 2.0, 20, dtype=np.float32).reshape(5, 4)
JAXPR_DOCS = f"See {checks.DOCS}/jaxpr.html"

# (function, description, the primitives jax.grad adds to its program)
GRAD_CASES = [
    (lambda x: jnp.sum(jnp.sin(x)), "sum(sin(x))", {"cos", "broadcast_in_dim", "mul"}),
    (lambda x: jnp.sum(jnp.tanh(x @ W)), "sum(tanh(x @ W))", {"sub", "broadcast_in_dim", "mul", "add_any"}),
    (lambda x: jnp.sum(W.T @ x), "sum(W.T @ x)", {"broadcast_in_dim"}),
    (lambda x: jnp.sum(jnp.cos(x)) ** 2, "sum(cos(x)) ** 2", {"sin", "neg", "broadcast_in_dim", "mul"}),
]

# (function, description, (name, output shape) per equation of its vmapped program over XS)
VMAP_CASES = [
    (lambda v: jnp.sum(v * jnp.arange(4.0)), "sum(v * arange(4.))",
     [("iota", (4,)), ("broadcast_in_dim", (1, 4)), ("mul", (5, 4)), ("reduce_sum", (5,))]),
    (lambda v: jnp.tanh(v @ W), "tanh(v @ W)", [("dot_general", (5, 3)), ("tanh", (5, 3))]),
    (lambda v: v[0] * v, "v[0] * v",
     [("slice", (5, 1)), ("squeeze", (5,)), ("broadcast_in_dim", (5, 1)), ("mul", (5, 4))]),
    (lambda v: jnp.outer(v, v).sum(0), "outer(v, v).sum(0)",
     [("broadcast_in_dim", (5, 4, 1)), ("broadcast_in_dim", (5, 1, 4)), ("mul", (5, 4, 4)),
      ("reduce_sum", (5, 4))]),
]


def _show(value):
    return repr(sorted(value)) if isinstance(value, (set, frozenset)) else repr(value)


def _spec(mesh, shape, spec):
    return jax.ShapeDtypeStruct(shape, jnp.float32, sharding=NamedSharding(mesh, spec))


def _shard_map_cases():
    """(g, args, description, per-device input shapes, body primitives), for this many devices."""
    n = jax.device_count()
    line = jax.make_mesh((n,), ("data",))
    grid = jax.make_mesh((n // 2, 2) if n % 2 == 0 else (n, 1), ("data", "model"))
    rows, cols = grid.shape["data"], grid.shape["model"]
    dot = jax.jit(jax.shard_map(lambda a, b: lax.psum(jnp.sum(a * b), "data"), mesh=line,
                                in_specs=(P("data"), P("data")), out_specs=P()))
    matvec = jax.shard_map(lambda m, v: lax.psum(m @ v, "model"), mesh=grid,
                           in_specs=(P("data", "model"), P("model")), out_specs=P("data"))
    centre = jax.jit(jax.shard_map(lambda m: jnp.exp(m) - lax.pmax(jnp.max(m), "data"), mesh=line,
                                   in_specs=P(None, "data"), out_specs=P(None, "data")))
    return [
        (dot, (_spec(line, (2 * n,), P("data")),) * 2, "jit(shard_map(psum(sum(a * b))))",
         [(2,), (2,)], ["mul", "reduce_sum", "psum_invariant"]),
        (matvec, (_spec(grid, (2 * rows, 3 * cols), P("data", "model")), _spec(grid, (3 * cols,), P("model"))),
         "shard_map(psum(m @ v)) on a (data, model) mesh", [(2, 3), (3,)],
         ["pvary", "dot_general", "psum_invariant"]),
        (centre, (_spec(line, (3, 2 * n), P(None, "data")),), "jit(shard_map(exp(m) - pmax(max(m)))) over columns",
         [(3, 2)], ["exp", "reduce_max", "pmax", "pvary", "sub"]),
    ]


def test_what_grad_adds(exercise):
    for f, what, want in GRAD_CASES:
        got = exercise.added_by_grad(f, X)
        if not isinstance(got, (set, frozenset)) or set(got) != want:
            checks.fail(f"added_by_grad({what}, x) returned {_show(got)}; expected the set {sorted(want)}. "
                        f"Compare the primitive names of the equations of two traced programs, f's and "
                        f"jax.grad(f)'s, both at x, top-level equations only: grad keeps the forward "
                        f"ops and adds the linearized and transposed ones. {JAXPR_DOCS}")


def test_what_vmap_does_to_shapes(exercise):
    for f, what, want in VMAP_CASES:
        got = exercise.vmap_shapes(f, XS)
        try:
            listed = [(str(name), tuple(int(d) for d in shape)) for name, shape in got]
        except (TypeError, ValueError):
            listed = got
        if listed != want:
            checks.fail(f"vmap_shapes({what}, xs of shape {XS.shape}) returned {got!r}; expected {want}. "
                        f"Trace jax.vmap(f) itself on the whole batch (not f on one example) and read, "
                        f"for every top-level equation in order, its primitive's name and the shape of "
                        f"its first output variable's abstract value. Note which values gain the batch "
                        f"axis of {XS.shape[0]} and which do not. {JAXPR_DOCS}")


def test_what_each_device_runs_in_shard_map(exercise):
    for g, args, what, shapes, names in _shard_map_cases():
        got = exercise.per_device_view(g, *args)
        try:
            in_shapes, body = got
            listed = ([tuple(int(d) for d in s) for s in in_shapes], [str(p) for p in body])
        except (TypeError, ValueError):
            listed = got
        if listed != (shapes, names):
            global_shapes = [tuple(a.shape) for a in args]
            checks.fail(f"per_device_view({what}) with inputs of global shapes {global_shapes} returned "
                        f"{got!r}; expected ({shapes}, {names}). The shard_map equation may sit inside "
                        f"a jit equation's own program; its params['jaxpr'] is the per-device body, whose "
                        f"input variables carry the shapes each device receives (not the global ones) "
                        f"and whose equations, collectives included, run on every device. "
                        f"See {checks.DOCS}/notebooks/shard_map.html")


def test_unseen_programs_answered_by_tracing_alone(exercise):
    n = jax.device_count()
    line = jax.make_mesh((n,), ("data",))
    scale = jax.jit(jax.shard_map(lambda a, b: jnp.sum(a) * b, mesh=line, in_specs=(P("data"), P()),
                                  out_specs=P("data")))
    scale_args = (_spec(line, (3 * n,), P("data")), _spec(line, (5,), P()))
    with checks.count_compiles() as log:
        grad_answer = exercise.added_by_grad(lambda x: jnp.sum(jnp.log(x * x + 1.0)), X)
        vmap_answer = exercise.vmap_shapes(lambda v: jnp.dot(v, v) * v, XS)
        device_answer = exercise.per_device_view(scale, *scale_args)
    compiled = log.names + log.eager
    if compiled:
        checks.fail(f"answering the three questions compiled {len(compiled)} program(s) "
                    f"({', '.join(sorted(set(compiled)))}). jax.make_jaxpr only traces: it records the "
                    f"program, typed with every shape, without compiling or running anything. The "
                    f"per-device shapes are in the traced shard_map body already, so there is no need "
                    f"for XLA's compiled output. {JAXPR_DOCS}", "wrong-tool")
    answers = [
        ("added_by_grad(sum(log(x * x + 1)), x)", grad_answer, {"add_any", "broadcast_in_dim", "div"}),
        ("vmap_shapes(dot(v, v) * v, xs)", vmap_answer,
         [("dot_general", (5,)), ("broadcast_in_dim", (5, 1)), ("mul", (5, 4))]),
        ("per_device_view(shard_map(sum(a) * b), a split, b replicated)", device_answer,
         ([(3,), (5,)], ["reduce_sum", "pvary", "mul"])),
    ]
    for what, got, want in answers:
        normal = got
        try:
            if isinstance(want, list):
                normal = [(str(name), tuple(shape)) for name, shape in got]
            elif isinstance(want, tuple):
                normal = ([tuple(s) for s in got[0]], [str(p) for p in got[1]])
        except (TypeError, ValueError, IndexError):
            pass
        if normal != want:
            checks.fail(f"{what} returned {_show(got)} for a program the other checks do not show; "
                        f"expected {_show(want)}. The answers must come from tracing the program you are "
                        f"given, whatever it is. {JAXPR_DOCS}")
