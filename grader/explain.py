"""Plain-language explanations of the errors learners hit.

`explain(exc)` returns a one-line headline plus the idea and a docs link for
the JAX errors that come up in the katas; the plugin puts it above the
traceback and the grader uses the headline as the failure reason.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from grader.checks import DOCS, KataFailure


@dataclass(frozen=True)
class Explanation:
    headline: str  # what happened, one line
    idea: str = ""  # the JAX idea behind it
    link: str = ""
    code: str = "error"  # the kind of mistake, a key of checks.FAILURE_CODES

    def text(self) -> str:
        lines = [self.headline]
        if self.idea:
            lines.append(self.idea)
        if self.link:
            lines.append(f"Read: {self.link}")
        return "\n".join(lines)


# Keyed by exception class name so this module need not import every JAX error type.
_BY_NAME = {
    "ConcretizationTypeError": Explanation(
        "a traced value was used where Python needs a concrete one (ConcretizationTypeError)",
        "Under jit, arguments are abstract tracers with a shape and dtype but no value. Python "
        "`if`, `range(n)`, shapes and `int(x)` need values: mark the argument static "
        "(static_argnums/static_argnames) or use lax.cond / jnp.where / lax.fori_loop.",
        f"{DOCS}/errors.html#jax.errors.ConcretizationTypeError", code="traced-value"),
    "TracerBoolConversionError": Explanation(
        "Python `if`/`while`/`and`/`or` was applied to a traced value (TracerBoolConversionError)",
        "jit traces the function once for all values, so a Python branch on an argument's value "
        "cannot be decided. Use jnp.where or lax.cond, or mark the argument static.",
        f"{DOCS}/errors.html#jax.errors.TracerBoolConversionError", code="traced-value"),
    "TracerIntegerConversionError": Explanation(
        "a traced value was used as a Python int (TracerIntegerConversionError)",
        "Indexing a Python list or calling range() with a traced value needs its concrete value. "
        "Mark it static or use array indexing / lax loops.",
        f"{DOCS}/errors.html#jax.errors.TracerIntegerConversionError", code="traced-value"),
    "TracerArrayConversionError": Explanation(
        "a traced value was handed to NumPy (TracerArrayConversionError)",
        "NumPy functions need concrete arrays; inside jit/grad/vmap use jax.numpy (jnp.sin, not np.sin).",
        f"{DOCS}/errors.html#jax.errors.TracerArrayConversionError", code="numpy-on-tracer"),
    "UnexpectedTracerError": Explanation(
        "a tracer escaped from a transformed function (UnexpectedTracerError)",
        "A value computed under jit/grad was stored in a global or an outer list and used after "
        "the trace ended. Return values instead of saving them on the side.",
        f"{DOCS}/errors.html#jax.errors.UnexpectedTracerError", code="leaked-tracer"),
    "KeyReuseError": Explanation(
        "the same PRNG key was used twice (KeyReuseError)",
        "A key is consumed by one random draw; reuse gives correlated 'random' numbers. Split it "
        "with jax.random.split or derive new keys with jax.random.fold_in.",
        f"{DOCS}/random-numbers.html", code="key-reuse"),
    "NotImplementedError": Explanation(
        "this exercise is still a TODO",
        "Open the exercise file, read its docstring, and replace the `raise NotImplementedError` "
        "with your code. `grader hint` gives a hint.",
        code="todo"),
    "MemoryError": Explanation(
        "the check process ran out of memory (MemoryError)",
        "Something allocated far more than the exercise needs: a list or array that grows without "
        "end, or a huge intermediate (an outer product, a materialised matrix).",
        code="memory-limit"),
    "Timeout": Explanation(
        "the check did not finish in time",
        "An endless loop is the usual cause: a Python `while`, or a lax.while_loop whose "
        "condition never turns False. Check that every step moves the loop towards its end.",
        f"{DOCS}/control-flow.html", code="timeout"),
}


# Errors JAX raises as plain TypeError/ValueError, told apart by their message.
_BY_MESSAGE = {
    "Non-hashable static arguments are not supported. An error occurred while trying to hash an "
    "object of type <class 'jaxlib._jax.ArrayImpl'>": Explanation(
        "an array was passed as a static argument (static arguments must be hashable; arrays are not)",
        "Arrays are what jit traces: they reach the compiled program as data, whatever their values. "
        "Only Python values that pick a different program (flags, sizes, modes) belong in "
        "static_argnums/static_argnames; take the array argument out of them.",
        f"{DOCS}/jit-compilation.html#marking-arguments-as-static", code="static-argument"),
    "does not evenly divide the dimension size": Explanation(
        "an array dimension does not split evenly over the devices of its mesh axis",
        "A sharded dimension is cut into one equal block per device along the mesh axis named in "
        "the PartitionSpec, so its size must be a multiple of that axis's size. Shard another "
        "dimension, or use a mesh axis that divides this one.",
        f"{DOCS}/sharded-computation.html", code="wrong-sharding"),
    "not evenly divisible by the corresponding mesh axis sizes": Explanation(
        "a shard_map input does not split evenly over the mesh",
        "in_specs cut each named array axis into one equal block per device along the mesh axis, "
        "so its size must be a multiple of the mesh axis's size.",
        f"{DOCS}/notebooks/shard_map.html", code="wrong-sharding"),
    "can only refer to Auto axes of the mesh": Explanation(
        "with_sharding_constraint was used on an Explicit mesh axis",
        "With Explicit axes (jax.make_mesh's default) the sharding is part of the array's type: "
        "change it with jax.sharding.reshard. with_sharding_constraint is a hint to the compiler "
        "and only applies to Auto axes.",
        f"{DOCS}/notebooks/explicit-sharding.html", code="wrong-sharding"),
    "it is ambiguous how the output should be sharded": Explanation(
        "a contraction over a sharded dimension has no single obvious output sharding",
        "With Explicit axes JAX will not guess: both operands are split along the summed dimension, "
        "so say where the result goes with the operation's out_sharding argument (or reshard an "
        "operand first).",
        f"{DOCS}/notebooks/explicit-sharding.html", code="wrong-sharding"),
    "cannot select an axis to squeeze out": Explanation(
        "a pmapped argument's leading axis does not match the number of devices",
        "pmap maps the leading axis onto devices one slice each, so its length must equal the "
        "number of devices (jax.device_count()). Reshape to (devices, per_device, ...) first.",
        f"{DOCS}/_autosummary/jax.pmap.html", code="device-count"),
    "Non-hashable static arguments": Explanation(
        "a static argument must be hashable, and this one is not (a list, dict or array)",
        "jit caches one compiled program per value of each static argument, keyed by its hash. "
        "Pass a tuple instead of a list, or make the argument an ordinary traced array.",
        f"{DOCS}/jit-compilation.html", code="static-argument"),
    "does not support item assignment": Explanation(
        "a JAX array was assigned to in place (JAX arrays are immutable)",
        "`x[i] = v` cannot work on an immutable array: write `x = x.at[i].set(v)` (or .add, "
        ".multiply, .min, .max), which returns an updated copy.",
        f"{DOCS}/_autosummary/jax.numpy.ndarray.at.html", code="mutates-input"),
}


def explain(exc: BaseException) -> Explanation | None:
    """The explanation for `exc`, or None for errors with no special lesson."""
    if isinstance(exc, KataFailure):
        return None
    message = str(exc)
    for fragment, known in _BY_MESSAGE.items():
        if fragment in message:
            return known
    for cls in type(exc).__mro__:
        known = _BY_NAME.get(cls.__name__)
        if known is None:
            continue
        if cls is NotImplementedError:
            todo = str(exc).strip() or "TODO"
            return replace(known, headline=f"not done yet: {todo}")
        return known
    if str(exc).startswith("Timeout (>"):  # pytest-timeout's failure
        return _BY_NAME["Timeout"]
    return None


def failure_code(exc: BaseException) -> str:
    """The kind of mistake `exc` reveals: a key of checks.FAILURE_CODES."""
    if isinstance(exc, KataFailure):
        return exc.code
    known = explain(exc)
    return known.code if known is not None else "error"


def explain_timeout(reason: str) -> Explanation:
    """The lesson for a check that ran out of time; `reason` says how long and which exercise."""
    return replace(_BY_NAME["Timeout"], headline=reason)


def headline(exc: BaseException) -> str:
    """One line saying why a check failed: the explanation or the error's own first line."""
    known = explain(exc)
    if known is not None:
        return known.headline
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    if isinstance(exc, AssertionError):
        return first or "assertion failed"
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
