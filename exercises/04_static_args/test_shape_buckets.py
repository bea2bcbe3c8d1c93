"""Checks for static-5 (shape_buckets)."""

from collections import Counter

import numpy as np

from grader import checks


def _inputs(lengths, seed):
    rng = np.random.default_rng(seed)
    return [rng.normal(2.0, 3.0, size=int(n)).astype(np.float32) for n in lengths]


def test_matches_mean_of_unpadded_input(exercise):
    for x in _inputs([1, 3, 5, 100, 255, 256], seed=1):
        checks.assert_close(
            exercise.bucketed_mean(x), np.mean(x.astype(np.float64)), rtol=1e-5, atol=1e-5,
            what=f"bucketed_mean(x) for a length-{len(x)} x",
            hint="The padding must not count: mask the padded tail out of the sum, and divide by "
                 "the true length, not the padded one.")
    _assert_mean_follows_the_bucket(exercise, _inputs([100], seed=3)[0])


def _assert_mean_follows_the_bucket(exercise, x):
    """The mean is computed by JAX from the padded bucket: traced with x closed over, the program holds
    the bucket (x and its padding) as a constant, and its result moves when the bucket's values do."""
    program = checks.program_of(lambda: exercise.bucketed_mean(x), what=f"bucketed_mean(x) for a length-{len(x)} x")
    bucket = 1 << (len(x) - 1).bit_length()
    def data_part(const: np.ndarray):  # x's own elements of the bucket; the padding stays as it was
        if const.shape != (bucket,) or not np.array_equal(const[:len(x)], x):
            return False
        return np.arange(bucket) < len(x)

    # Nudged, the mean must move as the mean of the nudged x does, not merely move.
    follows = program.follows_constants(data_part, expected=lambda nudged: [nudged[0][:len(x)].mean()])
    if follows is None:
        checks.fail(f"bucketed_mean(x) for a length-{len(x)} x never hands JAX the padded input (x in a "
                    f"length-{bucket} bucket): the host computed with x before JAX saw it. The padded array "
                    f"must reach the jitted function, which masks the padding and averages. "
                    f"See {checks.DOCS}/jit-compilation.html", "not-jitted")
    if not follows:
        checks.fail(f"bucketed_mean(x)'s result does not follow the padded input its jitted function "
                    f"receives: with x's values in the bucket moved, it does not move as their mean does (it "
                    f"stays, or moves by another amount), so the mean was computed elsewhere (NumPy on the "
                    f"host) and the bucket only passes through or corrects it. The jitted "
                    f"function must mask the padding and average the bucket itself. "
                    f"See {checks.DOCS}/jit-compilation.html", "not-jitted")


def test_compiles_at_most_once_per_bucket(exercise):
    # 100 lengths in 1..256 from a fixed seed: 81 distinct lengths over 7 power-of-two buckets.
    lengths = [int(n) for n in np.random.default_rng(8).integers(1, 257, size=100)]
    inputs = _inputs(lengths, seed=2)
    # Start from empty in-memory caches so the count does not depend on what earlier
    # checks compiled.
    checks.clear_caches()
    done = 0
    with checks.count_compiles() as log:
        for x in inputs:
            exercise.bucketed_mean(x)
            done += 1
            if sum(name != "jit(stage)" for name in log.names + log.eager) > 12:
                break  # already over budget: spare a wrong answer the remaining compiles
    # JAX 0.10 stages a NumPy array given to jnp.asarray through a small copy program
    # (`jit(stage)`) per new shape: moving data, not the computation counted.
    programs = [(name, sig) for name, sig in zip(log.names, log.signatures) if name != "jit(stage)"]
    eager = [name for name in log.eager if name != "jit(stage)"]
    calls = f"the first {done} of 100 inputs ({len(set(lengths[:done]))} distinct lengths from 1 to 256)"
    if not programs:
        checks.fail(f"bucketed_mean compiled no jitted function for {calls}: the mean was computed without "
                    f"jit (NumPy on the host, or jnp operations run one by one). The padded input must "
                    f"reach one jitted function that computes the masked mean. "
                    f"See {checks.DOCS}/jit-compilation.html", "not-jitted")
    known = [sig for _, sig in programs if sig is not None]  # None: JAX did not report the inputs
    if known and not any(any(len(shape) == 1 for shape, _ in sig) for sig in known):
        seen = sorted({f"{name}{[f'{dtype}{list(shape)}' for shape, dtype in sig or ()]}"
                       for name, sig in programs})
        checks.fail(f"the jitted function(s) of bucketed_mean only ever received scalars ({', '.join(seen)}): "
                    f"the mean itself was computed before them, outside the compiled code. The padded "
                    f"array must reach the jitted function, which masks the padding and averages. "
                    f"See {checks.DOCS}/jit-compilation.html", "not-jitted")
    _assert_mean_computed_inside(log, calls)
    # Eager jnp operations compile per shape too (jnp.pad on the unpadded input: one per length),
    # so they count against the budget.
    every = checks.CompileLog(None, names=[name for name, _ in programs] + [f"{name} (eager)" for name in eager])
    top = ", ".join(f"{name} x{k}" for name, k in Counter(every.names).most_common(3))
    eager_note = (f" {len(eager)} of them were eager jnp operations outside jit, each compiled for the "
                  f"shape it met: with an unpadded input, that is one per length. Pad on the host with "
                  f"NumPy, so only bucket shapes ever reach JAX." if len(eager) > 2 else "")
    shapes = {shape for _, sig in programs for shape, _ in sig or () if len(shape) == 1}
    if len(programs) > 9 and len(shapes) > 9:
        cause = (f" The jitted function met {len(shapes)} different input shapes: the inputs reached it "
                 f"unpadded (or padded to more than a few bucket sizes).")
    elif len(programs) > 9 and known:
        cause = (f" The jitted function met only {len(shapes)} input shape(s) yet compiled {len(programs)} "
                 f"times: something else in its cache key changes with every length, such as a static "
                 f"length argument.")
    else:
        cause = ""
    checks.assert_compiles(
        every, what="bucketed_mean()", at_most=9, calls=calls,
        why=f"Compiled most often: {top}.{eager_note}{cause} Every new input shape is a new program: only "
            f"the bucket sizes may reach JAX, and the true length must reach the jitted function as traced "
            f"data")
    # The rule the task states, not only the budget: one fixed maximum pad (or buckets of another
    # rule) also stays under it, at the cost of computing on 256 values for an input of 3.
    buckets = {(1 << (n - 1).bit_length(),) for n in lengths[:done]}
    if known and shapes and shapes != buckets:
        listed = ", ".join(str(shape[0]) for shape in sorted(shapes)[:8])
        checks.fail(f"bucketed_mean's jitted function received inputs of length {listed} for {calls}; "
                    f"expected each input padded to next_power_of_two(len(x)), so its {len(buckets)} "
                    f"buckets: {', '.join(str(b[0]) for b in sorted(buckets))}. Padding every input to one "
                    f"maximum (or to another rule's sizes) compiles as rarely but computes on far more "
                    f"padding than the task's buckets allow. See {checks.DOCS}/jit-compilation.html",
                    "wrong-tool")


def _assert_mean_computed_inside(log, calls):
    """The jitted function that receives the padded bucket reduces it to the mean itself: it neither
    hands it to the host (a callback) nor returns it for NumPy to average afterwards."""
    bodies = [(name, sig, outputs, prims) for name, sig, outputs, prims
              in zip(log.names, log.signatures, log.outputs, log.primitives)
              if name != "jit(stage)" and sig is not None and outputs is not None
              and any(len(shape) == 1 for shape, _ in sig)]
    called_back = sorted({name for name, _, _, prims in bodies if prims & checks.CALLBACKS})
    if called_back:
        checks.fail(f"bucketed_mean's jitted function ({', '.join(called_back)}) hands the padded input to a "
                    f"host callback for {calls}: NumPy computes the mean on the host, in the middle of the "
                    f"program, and JAX does none of the work. Write the masked mean with jax.numpy inside "
                    f"the jitted function. See {checks.DOCS}/jit-compilation.html", "host-transfer")
    if bodies and not any(outputs and all(shape == () for shape, _ in outputs) for _, _, outputs, _ in bodies):
        seen = sorted({f"{name} -> {', '.join(f'{dtype}{list(shape)}' for shape, dtype in outputs)}"
                       for name, _, outputs, _ in bodies})
        checks.fail(f"bucketed_mean's jitted function received the padded input but returned arrays, not the "
                    f"mean ({'; '.join(seen[:3])}) for {calls}: the averaging happened after it, outside "
                    f"the compiled code. The jitted function must mask the padding and reduce the bucket "
                    f"to the mean itself. See {checks.DOCS}/jit-compilation.html", "not-jitted")
