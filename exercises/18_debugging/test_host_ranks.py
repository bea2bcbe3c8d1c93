"""Checks for debug-4 (host_ranks)."""

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

CALLBACKS = f"{checks.DOCS}/external-callbacks.html"


def numpy_ranks(x):
    x = np.asarray(x)
    return np.argsort(np.argsort(x, axis=-1), axis=-1).astype(np.int32)


def stand_in_ranks(x):
    """Stands in for host_ranks: ranks counted from the largest (0 = largest), so a result that is
    what the host returned differs from ranks computed any other way."""
    return (np.shape(x)[-1] - 1 - numpy_ranks(x)).astype(np.int32)


FOLLOW_THE_HOST = ("The result must be what host_ranks returned: ranks computed on the device beside a "
                   "host call whose answer is folded in or thrown away skip the lesson.")


def host_calls(host):
    """The shape of each call of the watched host_ranks, from the witness's record (not from anything
    the exercise was handed, which it could rewrite)."""
    return [run.shapes[0] if run.shapes else None for run in host.runs()]


def _inputs(seed, shape):
    return np.random.default_rng(seed).permutation(np.prod(shape)).reshape(shape).astype(np.float32)


def _check_through_host(exercise, shapes, *, what):
    if not shapes:
        program = checks.program_of(exercise.ranks, jnp.zeros(6, jnp.float32), what="ranks")
        checks.fail(f"{what} never called host_ranks, yet the task is to run the host's NumPy code from "
                    f"the compiled program (its program holds "
                    f"{', '.join(sorted(set(program.primitives()))) or 'nothing'}). Computing the same "
                    f"ranks with jax.numpy skips the lesson: call host_ranks through jax.pure_callback. "
                    f"See {CALLBACKS}", "wrong-tool")


def test_jit_calls_the_host_once_per_call(exercise):
    host = checks.Watch(stand_in_ranks)  # stands in for host_ranks, each call witnessed
    xs = [_inputs(seed, (6,)) for seed in (1, 2)]
    args = [jnp.asarray(x) for x in xs]
    with checks.swap_function(exercise, "host_ranks", host.f):
        jitted = jax.jit(exercise.ranks)
        with checks.count_compiles() as first:
            out = jax.block_until_ready(jitted(args[0]))
        with checks.count_compiles() as again:
            second = jax.block_until_ready(jitted(args[1]))
        direct = jax.block_until_ready(exercise.ranks(args[0]))  # on an array, not traced: the host runs too
    for x, got, how in zip(xs + xs[:1], (out, second, direct), ("jax.jit(ranks)", "jax.jit(ranks)", "ranks")):
        checks.assert_shape_dtype(got, (6,), jnp.int32, what=f"{how}(x)",
                                  hint="Declare the result like x's shape, with host_ranks's dtype int32.")
        checks.assert_follows(got, stand_in_ranks(x), what=f"{how}({x.tolist()})", swapped="host_ranks",
                              hint=FOLLOW_THE_HOST)
    shapes = host_calls(host)
    _check_through_host(exercise, shapes, what="jax.jit(ranks)(x)")
    program = checks.program_of(exercise.ranks, args[0], what="ranks")
    checks.assert_uses(program, {"pure_callback"}, what="ranks", tool="jax.pure_callback")
    _one_host_call(program, what="ranks")
    if len(shapes) != 3:
        checks.fail(f"two calls of jax.jit(ranks) and one of ranks on an array ran host_ranks {len(shapes)} "
                    f"times; expected 3, one per call: the compiled program calls the host function each "
                    f"time it runs, and ranks called on an array calls it too (the task is to compute the "
                    f"ranks on the host, traced or not).",
                    "host-transfer")
    checks.assert_compiles(first, what="jax.jit(ranks)", calls="its first call", at_most=1)
    checks.assert_compiles(again, what="jax.jit(ranks)", calls="a second call with the same shape",
                           expected=0, warm_up=first)


def _one_host_call(program, *, what):
    """The program calls the host once, through pure_callback: no other callback beside it."""
    held = program.times(*checks.CALLBACKS)
    pure = program.times("pure_callback")
    if held != 1 or pure != 1:
        checks.fail(f"{what}'s program calls the host {held} time(s), {pure} of them through pure_callback; "
                    f"expected one call, through jax.pure_callback: host_ranks computes the ranks, and the "
                    f"result is what that one call returns (another callback beside it, io_callback or a "
                    f"second pure_callback, is a second trip to the host). See {CALLBACKS}", "wrong-tool")


def test_vmap_calls_the_host_once_per_batch(exercise):
    host = checks.Watch(stand_in_ranks)
    xs = _inputs(3, (5, 6))
    with checks.swap_function(exercise, "host_ranks", host.f):
        out = jax.block_until_ready(jax.jit(jax.vmap(exercise.ranks))(jnp.asarray(xs)))
    checks.assert_shape_dtype(out, (5, 6), jnp.int32, what="jax.jit(jax.vmap(ranks))(xs)")
    _one_host_call(checks.program_of(jax.vmap(exercise.ranks), jnp.asarray(xs), what="jax.vmap(ranks)"),
                   what="jax.vmap(ranks)")
    checks.assert_follows(out, stand_in_ranks(xs), what="jax.jit(jax.vmap(ranks))(xs) over 5 rows",
                          swapped="host_ranks", hint=FOLLOW_THE_HOST)
    shapes = host_calls(host)
    _check_through_host(exercise, shapes, what="jax.jit(jax.vmap(ranks))(xs)")
    if len(shapes) != 1:
        checks.fail(f"jax.vmap(ranks) over a batch of 5 called host_ranks {len(shapes)} times, with "
                    f"shapes {shapes[:5]}; expected one call with the whole (5, 6) batch. Each call "
                    f"is a trip from the compiled program to Python and back, and host_ranks already "
                    f"handles leading axes: tell pure_callback that it may take the batch at once. "
                    f"See {CALLBACKS}", "host-transfer")
    if shapes[0] != (5, 6):
        checks.fail(f"jax.vmap(ranks) over a (5, 6) batch called host_ranks once, with shape "
                    f"{shapes[0]}; expected the whole batch, (5, 6).", "host-transfer")
