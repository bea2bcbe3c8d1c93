"""Checks for export-2 (serialize_round_trip)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np

from grader import checks

EXPORT = f"{checks.DOCS}/export/export.html"


def energy(x):
    return jnp.sum(jnp.sin(x) * x, axis=1)


def numpy_energy(x):
    x = np.asarray(x, np.float64)
    return np.sum(np.sin(x) * x, axis=1)


def numpy_energy_grad(x):
    x = np.asarray(x, np.float64)
    return np.cos(x) * x + np.sin(x)


@functools.lru_cache(maxsize=1)
def _exported():
    """The checks' own artefact: energy for float32[b, 3], any batch size b."""
    spec = jax.ShapeDtypeStruct(jax.export.symbolic_shape("b, 3"), jnp.float32)
    return jax.export.export(jax.jit(energy))(spec)


def _batch(seed, n):
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=(n, 3)).astype(np.float32)


def _describe(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__module__}.{type(error).__name__}" + (f": {text[0][:100]}" if text else "")


def _types(exported):
    return f"{[a.str_short() for a in exported.in_avals]} -> {[a.str_short() for a in exported.out_avals]}"


def _loaded(exercise, data, *, made_by):
    try:
        fn = exercise.load(data)
    except NotImplementedError:
        raise
    except Exception as error:  # noqa: BLE001 - whatever stops it, the bytes alone did not suffice
        checks.fail(f"load(data) failed on bytes made by {made_by} ({_describe(error)}). load gets "
                    f"nothing but the bytes: it must rebuild the function from them alone, as a server "
                    f"that never saw the Python code would. See {EXPORT}", "wrong-tool")
    if not callable(fn):
        checks.fail(f"load(data) returned {type(fn).__name__}, which cannot be called; expected a function "
                    f"that runs the artefact, called like the original.", "wrong-shape")
    return fn


def test_save_gives_bytes_that_deserialize_with_the_derivative(exercise):
    exported = _exported()
    data = exercise.save(exported)
    if not isinstance(data, (bytes, bytearray)):
        checks.fail(f"save(exported) returned {type(data).__name__}; expected bytes (a bytearray): an "
                    f"Exported object lives only in this process, bytes can be stored and shipped. "
                    f"See {EXPORT}", "wrong-tool")
    try:
        restored = jax.export.deserialize(bytearray(data))
    except Exception as error:  # noqa: BLE001 - anything else than an Exported's bytes
        checks.fail(f"jax.export.deserialize could not read the bytes save(exported) returned "
                    f"({_describe(error)}). save must produce the artefact's own serialization, which "
                    f"any process can load. See {EXPORT}", "wrong-tool")
    if _types(restored) != _types(exported):
        checks.fail(f"the saved artefact has types {_types(restored)}; expected those of the exported one, "
                    f"{_types(exported)}: save must keep the artefact as it is.")
    x = _batch(1, 2)
    checks.assert_close(restored.call(jnp.asarray(x)), numpy_energy(x),
                        what="deserialize(save(exported)).call(x) for a batch of 2")
    if not restored.has_vjp():
        checks.fail("the bytes save(exported) returned carry no backward pass (deserialize(...).has_vjp() is "
                    "False), so jax.grad of the loaded function will fail. Serialization keeps derivatives "
                    f"only up to the order you ask for. See {EXPORT}")


def test_load_runs_the_artefact_from_bytes_alone(exercise):
    data = _exported().serialize(vjp_order=1)
    fn = _loaded(exercise, data, made_by="exported.serialize(vjp_order=1)")
    x = _batch(2, 5)
    checks.assert_close(fn(jnp.asarray(x)), numpy_energy(x), what="load(data)(x) for a batch of 5")
    program = checks.program_of(fn, jnp.asarray(_batch(4, 2)), what="load(data)")
    if not program.has("call_exported"):
        checks.fail(f"the function load(data) returned does not run the deserialized artefact (its program "
                    f"holds {', '.join(sorted(set(program.primitives()))) or 'nothing'}). The bytes are "
                    f"the function: call what jax.export.deserialize rebuilt from them. See {EXPORT}",
                    "wrong-tool")
    # The program read is what a call on arrays runs: the artefact, and no work of its own beside it.
    checks.assert_called_as_traced(fn, jnp.asarray(_batch(4, 2)), what="load(data)", program=program,
                                   nothing_else=True)


def test_grad_through_the_loaded_function(exercise):
    fn = _loaded(exercise, exercise.save(_exported()), made_by="save(exported)")
    x = _batch(5, 3)
    try:
        grad = jax.grad(lambda v: jnp.sum(fn(v)))(jnp.asarray(x))
    except ValueError as error:
        if "No VJP" not in str(error):
            raise
        checks.fail("jax.grad of load(save(exported)) failed: 'No VJP is available'. The loaded artefact has "
                    "no backward pass because the bytes did not keep one; serialization keeps derivatives "
                    f"only up to the order you ask for. See {EXPORT}")
    checks.assert_close(grad, numpy_energy_grad(x), rtol=1e-5, atol=1e-5,
                        what="jax.grad(sum of load(save(exported))(x))")
