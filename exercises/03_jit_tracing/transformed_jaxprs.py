"""Reading transformed programs: what grad, vmap and shard_map do to a jaxpr.

Each transformation rewrites the traced program, and `jax.make_jaxpr` shows
the result. `jax.grad(f)` keeps f's forward equations, then adds their
derivatives in reverse: each op's linearization (sin brings cos) and its
transpose (a reduce_sum's transpose is a broadcast_in_dim, a dot_general's is
another dot_general; add_any sums the cotangents of a value used twice).
`jax.vmap(f)` adds no loop: the same equations, run on arrays with a batch
axis, which only the values that depend on the mapped input gain. A
`shard_map` is one equation whose `params["jaxpr"]` is the body each device
runs, typed with per-device shapes; a jitted function is a `jit` equation
with its own `params["jaxpr"]` to look inside.
Docs: https://docs.jax.dev/en/latest/jaxpr.html
      https://docs.jax.dev/en/latest/notebooks/shard_map.html

Task (fill-in): answer three questions about programs by tracing them with
jax.make_jaxpr (tracing only: nothing to compile or run). Each function's
docstring says what to return. Keep the names and signatures.
"""

import jax


def added_by_grad(f, x) -> set[str]:
    """Primitive names of the equations of jax.grad(f)'s program at x that f's own program at x lacks."""
    raise NotImplementedError("TODO: trace f and jax.grad(f) with jax.make_jaxpr and compare their primitive names")


def vmap_shapes(f, xs) -> list[tuple[str, tuple[int, ...]]]:
    """(primitive name, shape of its first output) for each equation of jax.vmap(f)'s program on xs, in order."""
    raise NotImplementedError("TODO: trace jax.vmap(f) on xs and read each equation's name and output shape")


def per_device_view(g, *args) -> tuple[list[tuple[int, ...]], list[str]]:
    """g(*args)'s program holds one shard_map, maybe inside a jit: the shape of each input of its body, and
    the primitive names of the body's equations, in order."""
    raise NotImplementedError("TODO: find the shard_map equation in the program and read its body, params['jaxpr']")
