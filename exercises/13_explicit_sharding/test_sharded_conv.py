"""Checks for explicit-6 (sharded_conv)."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

CONV_DOCS = f"{checks.DOCS}/notebooks/convolutions.html"
C_IN, WIDTH, C_OUT, TAPS = 2, 12, 3, 4
CONV = {"conv_general_dilated"}


def _setup():
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2 * n, C_IN, WIDTH)).astype(np.float32)
    k = rng.normal(size=(C_OUT, C_IN, TAPS)).astype(np.float32)
    placed = (jax.device_put(x, NamedSharding(mesh, P("data"))), jax.device_put(k, NamedSharding(mesh, P())))
    return mesh, x, k, placed


def _correlate(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    out = WIDTH - TAPS + 1
    windows = np.stack([x[:, :, t:t + out] for t in range(TAPS)], axis=-1)  # (batch, c_in, out, taps)
    return np.einsum("bcwt,oct->bow", windows, k)


def test_filters_every_example_and_keeps_the_split(exercise):
    mesh, x, k, placed = _setup()
    with jax.set_mesh(mesh):
        out = exercise.filter_batch(*placed)
    checks.assert_close(out, _correlate(x, k), what="filter_batch(x, k)", rtol=1e-4, atol=1e-4,
                        hint="lax.conv_general_dilated(x, k, (1,), 'VALID') cross-correlates: the kernel "
                             "is not flipped, and 'VALID' keeps only full windows.")
    spec = tuple(jax.typeof(out).sharding.spec) + (None,) * 3
    if spec[:3] != ("data", None, None):
        checks.fail(f"filter_batch(x, k) has type {jax.typeof(out)}; expected the examples split like x "
                    f"({jax.typeof(placed[0])}): float32[{x.shape[0]}@data,{C_OUT},{WIDTH - TAPS + 1}].",
                    "wrong-sharding")


def test_each_device_convolves_only_its_examples(exercise):
    mesh, x, k, placed = _setup()
    n = jax.device_count()
    with jax.set_mesh(mesh):
        program = checks.program_of(exercise.filter_batch, *placed, what="filter_batch(x, k)")
        # The program read here (and compiled below, traced the same way) is the one that filters
        # the batch, not one shown only when traced.
        checks.assert_computes(program, _correlate(x, k), what="filter_batch(x, k)", rtol=1e-4, atol=1e-4)
        checks.assert_uses(program, CONV, what="filter_batch(x, k)", tool="lax.conv_general_dilated")
        if not program.applies_to_inputs(CONV, inputs=(0, 1)):
            checks.fail("filter_batch(x, k) calls lax.conv_general_dilated, but not on x and k as they came "
                        "in: the convolution is handed values computed beside it (windows and an einsum, "
                        "say), and passes them through. The task's conv filters the batch with the kernel "
                        f"itself. See {CONV_DOCS}", "wrong-tool")
        # The task's filter_batch is jitted: one compiled program, not op-by-op dispatch.
        checks.assert_jitted(exercise.filter_batch, *placed, what="filter_batch(x, k)", entirely=True)
        compiled = checks.compiled_program(exercise.filter_batch, *placed, what="filter_batch(x, k)")
        # compiled_program compiles whatever it is given; the task's filter_batch is jitted itself.
        checks.assert_jitted(exercise.filter_batch, *placed, what="filter_batch(x, k)")
    found = dict(compiled.collectives())
    if found:
        checks.fail(f"filter_batch(x, k) compiles to {found}: devices exchange data, yet each example's "
                    f"filtered output depends only on that example and the kernel every device already "
                    f"has. Gathering the batch makes every device convolve all of it. Leave x split and "
                    f"convolve it as it is. See {CONV_DOCS}", "not-distributed")
    if (2, C_IN, WIDTH) not in compiled.parameter_shapes():
        checks.fail(f"the compiled filter_batch(x, k) takes per-device inputs of shapes "
                    f"{compiled.parameter_shapes()}; expected each device to get its own (2, {C_IN}, {WIDTH}) "
                    f"examples of the ({x.shape[0]}, {C_IN}, {WIDTH}) batch.", "not-distributed")
