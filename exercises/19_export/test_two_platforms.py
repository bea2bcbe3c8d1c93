"""Checks for export-4 (two_platforms)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from grader import checks

EXPORT = f"{checks.DOCS}/export/export.html"


def activation(x):
    """The function handed to export_for_servers, through the witness (checks.Watch): each run of its
    body is recorded where the exercise cannot reach. Its zero term is lowered differently for each
    platform, so the artefact's program shows which platforms it was lowered for."""
    zero = lax.platform_dependent(x, cuda=lambda v: v * 0.0, tpu=lambda v: v - v, default=jnp.zeros_like)
    return jnp.tanh(x) * 2.0 + 1.0 + zero


def _spec():
    return jax.ShapeDtypeStruct(jax.export.symbolic_shape("b, 3"), jnp.float32)


def _export(exercise):
    f = checks.Watch(activation)
    try:
        exported = exercise.export_for_servers(f.f, _spec())
    except RuntimeError as error:
        if "Unknown backend" not in str(error):
            raise
        checks.fail(f"export_for_servers failed: {str(error).splitlines()[0][:120]}. A platform named for "
                    f"export is the kind of device the artefact will run on ('cpu', 'cuda', 'rocm', "
                    f"'tpu'); 'gpu' is not one of them. See {EXPORT}", "not-portable")
    if not isinstance(exported, jax.export.Exported):
        checks.fail(f"export_for_servers returned {type(exported).__name__}; expected one "
                    f"jax.export.Exported serving both kinds of server. See {EXPORT}", "not-portable")
    if [a.str_short() for a in exported.in_avals] != ["float32[b,3]"]:
        checks.fail(f"export_for_servers(f, spec) exported inputs {[a.str_short() for a in exported.in_avals]}; "
                    f"expected the spec it was given, float32[b,3].", "wrong-shape")
    return exported, f


def test_lowered_for_cpu_and_cuda(exercise):
    exported, f = _export(exercise)
    platforms = tuple(exported.platforms)
    missing = [p for p in ("cpu", "cuda") if p not in platforms]
    if missing:
        default = (jax.export.default_export_platform(),)
        how = ("Without platforms=, export lowers for the platform JAX runs on here only" if platforms == default
               else "export lowers for exactly the platforms it is given")
        checks.fail(f"the artefact was lowered for {platforms} only, so a server on {' or '.join(missing)} "
                    f"refuses it. {how}: name every platform the artefact must serve (lowering for one "
                    f"you do not have needs no device). See {EXPORT}", "not-portable")
    if "_platform_index" not in exported.mlir_module():
        checks.fail("the artefact's StableHLO has no platform argument: it is not one program that picks "
                    "its platform when called.", "not-portable")
    lowered = jax.export.export(jax.jit(activation), platforms=platforms)(_spec())
    if checks.exported_text(lowered) != checks.exported_text(exported):
        checks.fail(f"the artefact names the platforms {platforms}, but its program is not what jax.export "
                    f"lowers for them: it was lowered for other platforms (or with other options) and "
                    f"labelled afterwards, so a server would run another platform's code. Name the platforms "
                    f"when you export (platforms=...), and hand back the artefact as exported. See {EXPORT}",
                    "not-portable")
    traces = len(f.runs())
    if traces != 1:
        checks.fail(f"the function was traced {traces} times for one export; expected once: a "
                    f"multi-platform export traces once and lowers one program with a branch per platform.",
                    "repeated-work")


def test_runs_here_and_keeps_its_platforms(exercise):
    exported, _ = _export(exercise)
    restored = jax.export.deserialize(exported.serialize())
    if tuple(restored.platforms) != tuple(exported.platforms):
        checks.fail(f"after serialization the artefact lists platforms {restored.platforms}, not "
                    f"{exported.platforms}.")
    x = np.linspace(-1.0, 1.0, 6, dtype=np.float32).reshape(2, 3)
    try:
        out = restored.call(jnp.asarray(x))
    except ValueError as error:
        if "exported for platforms" not in str(error):
            raise
        checks.fail(f"the artefact cannot run on this machine's platform ({jax.default_backend()}): "
                    f"{str(error).splitlines()[0][:160]}. It is lowered only for the platforms it names; "
                    f"this one must be among them. See {EXPORT}", "not-portable")
    checks.assert_close(out, np.tanh(x.astype(np.float64)) * 2.0 + 1.0,
                        what="the artefact called here, after a serialization round trip")
