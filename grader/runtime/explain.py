"""Plain-language explanations of the errors learners hit.

`explain(exc)` returns a one-line headline plus the idea and a docs link for
the JAX errors that come up in the katas; the plugin puts it above the
traceback and the grader uses the headline as the failure reason.
"""

from __future__ import annotations

import importlib.util
import os
import re
from dataclasses import dataclass, replace

from grader.core.failures import DOCS, KataFailure

_JAX_DIR = os.path.dirname(importlib.util.find_spec("jax").origin)


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


BARE_CHILDREN = Explanation(
    "a pytree node's flatten_with_keys returned bare children, not (key, child) pairs",
    "register_pytree_with_keys needs flatten_with_keys to return (((key, child), ...), aux_data): each "
    "child paired with the key that names it, e.g. (jax.tree_util.GetAttrKey('mean'), g.mean). Bare "
    "children, as a plain flatten returns them, are read as pairs and taken apart.",
    f"{DOCS}/_autosummary/jax.tree_util.register_pytree_with_keys.html", code="not-pytree")


# Keyed by exception class name so this module need not import every JAX error type.
_BY_NAME = {
    "ConcretizationTypeError": Explanation(
        "a traced value was used where Python needs a concrete one (ConcretizationTypeError)",
        "Under jit, arguments are abstract tracers with a shape and dtype but no value, and Python "
        "`if`, `range(n)`, shapes and `int(x)` need values. Data that changes from call to call "
        "belongs in the program: lax.cond, jnp.where, lax.fori_loop. Only a Python setting that "
        "picks a different program (a flag, a size, a mode) belongs in static_argnums/static_argnames.",
        f"{DOCS}/errors.html#jax.errors.ConcretizationTypeError", code="traced-value"),
    "TracerBoolConversionError": Explanation(
        "Python `if`/`while`/`and`/`or` was applied to a traced value (TracerBoolConversionError)",
        "jit traces the function once for all values, so a Python branch on an argument's value "
        "cannot be decided. A branch on data belongs in the program (jnp.where, lax.cond); only a "
        "Python setting that picks a different program may be a static argument.",
        f"{DOCS}/errors.html#jax.errors.TracerBoolConversionError", code="traced-value"),
    "TracerIntegerConversionError": Explanation(
        "a traced value was used as a Python int (TracerIntegerConversionError)",
        "Indexing a Python list or calling range() with a traced value needs its concrete value. "
        "Index arrays instead of lists, loop with lax.fori_loop; a size that picks the program "
        "may be static.",
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
    "InconclusiveDimensionOperation": Explanation(
        "a symbolic dimension was used where its value must be known (InconclusiveDimensionOperation)",
        "With a symbolic shape (jax.export.symbolic_shape) JAX must prove each shape fact for every "
        "value of the symbol: a comparison, a Python int() or a reshape that only works for some "
        "values fails. State what you know in the symbolic shape (e.g. '2*b' for an even size) or "
        "in its constraints, or compute with the symbol itself.",
        f"{DOCS}/export/shape_poly.html", code="traced-value"),
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
# What the grader's examiner says when JAX computes with a tracer that came back from the submission's
# process after its trace ended (see engine.remote.examiner.proxies.EscapedTracer).
TRACED_ON_ITS_OWN = "traced on its own, and a function it hands JAX to run later"

_BY_MESSAGE = {
    TRACED_ON_ITS_OWN: Explanation(
        "a function handed to JAX for later closes over a value traced inside the exercise's function "
        "(UnexpectedTracerError under the grader)",
        "The grader traces the exercise's function on its own and runs what it hands JAX for later (a "
        "custom_vjp's bwd, a custom_jvp rule) after that trace has ended, so a traced argument the rule "
        "closes over (a bound, a scale) has escaped, although one process running it all at once accepts "
        "it. Hand the value over explicitly: return it from fwd as a residual, or make it an argument "
        "of the rule.",
        f"{DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html", code="leaked-tracer"),
    "Non-hashable static arguments are not supported. An error occurred while trying to hash an "
    "object of type <class 'jaxlib._jax.ArrayImpl'>": Explanation(
        "an array was passed as a static argument (static arguments must be hashable; arrays are not)",
        "Arrays are what jit traces: they reach the compiled program as data, whatever their values. "
        "Only Python values that pick a different program (flags, sizes, modes) belong in "
        "static_argnums/static_argnames; take the array argument out of them.",
        f"{DOCS}/jit-compilation.html#marking-arguments-as-static", code="static-argument"),
    "Non-hashable static arguments are not supported. An error occurred while trying to hash an "
    "object of type <class 'numpy.ndarray'>": Explanation(
        "a NumPy array was passed as a static argument (static arguments must be hashable; arrays are not)",
        "Arrays, NumPy ones included, are what jit traces: they reach the compiled program as data, "
        "whatever their values. Only Python values that pick a different program (flags, sizes, modes) "
        "belong in static_argnums/static_argnames; take the array argument out of them.",
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
        "so say where the result goes with the operation's out_sharding argument (resharding an "
        "operand to copies first also compiles, but gathers it whole on every device).",
        f"{DOCS}/notebooks/explicit-sharding.html", code="wrong-sharding"),
    "produces an illegally sharded result": Explanation(
        "two operands are split differently over the same mesh axis (ShardingTypeError)",
        "With Explicit axes an elementwise op keeps its operands' splits, so one split by rows and "
        "one by columns over the same mesh axis would give a result split twice over it. JAX will "
        "not move data behind your back: jax.reshard one operand to the other's layout first.",
        f"{DOCS}/notebooks/explicit-sharding.html", code="wrong-sharding"),
    "acts as an assert when all axes of mesh are of type": Explanation(
        "with_sharding_constraint asked an Explicit array for a layout it does not have",
        "On a mesh whose axes are all Explicit (jax.make_mesh's default) with_sharding_constraint "
        "only asserts the sharding already in the array's type. To change an Explicit array's layout, "
        "use jax.reshard; with_sharding_constraint steers the compiler only on a mesh built with "
        "AxisType.Auto axes, where you build the mesh yourself.",
        f"{DOCS}/notebooks/explicit-sharding.html", code="wrong-sharding"),
    "passed to reshard cannot contain axis names that are of type Auto": Explanation(
        "jax.reshard was used on an Auto mesh axis",
        "reshard changes the sharding in an Explicit array's type; on Auto axes the type carries "
        "no sharding, and lax.with_sharding_constraint is the tool that steers the compiler.",
        f"{DOCS}/notebooks/explicit-sharding.html", code="wrong-sharding"),
    "attribute is not available on traced array": Explanation(
        "x.sharding was read on a tracer (inside jit)",
        "Only concrete arrays have a .sharding. While tracing, the sharding lives in the value's "
        "type: jax.typeof(x).sharding (with .spec, .mesh and .shard_shape(shape)).",
        f"{DOCS}/notebooks/explicit-sharding.html", code="traced-value"),
    "Using PartitionSpec when you are not under a mesh context": Explanation(
        "a bare PartitionSpec was used with no current mesh",
        "A PartitionSpec names mesh axes but not the mesh. Wrap it in NamedSharding(mesh, spec), "
        "or run the code under `with jax.set_mesh(mesh):` so JAX knows which mesh is meant.",
        f"{DOCS}/_autosummary/jax.set_mesh.html", code="wrong-sharding"),
    "does not match the specs of the input": Explanation(
        "shard_map's in_specs disagree with how the input array is already split",
        "On an Explicit mesh an array's sharding is in its type, and shard_map will not silently "
        "re-split it: place the input with the layout in_specs names (device_put / jax.reshard), "
        "or make in_specs say how it is split.",
        f"{DOCS}/notebooks/shard_map.html", code="wrong-sharding"),
    "Please enter your `jit` into a mesh context via `jax.set_mesh`": Explanation(
        "an operation on Explicit-mesh arrays ran eagerly with no current mesh",
        "Values JAX creates along the way (constants, gradients' seeds) need to know which mesh to "
        "live on. Run the computation under jax.jit, or inside `with jax.set_mesh(mesh):`.",
        f"{DOCS}/_autosummary/jax.set_mesh.html", code="wrong-sharding"),
    "Received incompatible devices for jitted computation": Explanation(
        "one program got arrays that live on different sets of devices, or on its devices in another order",
        "A jitted (or shard_map) computation runs on one list of devices, in one order, and JAX never "
        "moves committed arrays implicitly: an array left on a single device, or split over a mesh "
        "that lists the devices in another order (one built anew instead of the mesh the function "
        "was handed), cannot join the program's. Use the mesh you are given, and keep intermediate "
        "results where the program put them.",
        f"{DOCS}/sharded-computation.html", code="wrong-sharding"),
    "vmap got inconsistent sizes for array axes to be mapped": Explanation(
        "vmap was asked to map axes of different lengths together",
        "Every argument whose in_axes entry is a number is cut into examples along that axis, so all "
        "of them must have the same length there. An argument meant to be shared by every example "
        "(in_axes None) is being mapped, or one is mapped along the wrong axis: the error lists each "
        "argument's mapped axis and its size.",
        f"{DOCS}/_autosummary/jax.vmap.html", code="wrong-shape"),
    "which implies that its rank should be at least": Explanation(
        "jax.vmap was asked to map an argument that has no such axis: a shared argument needs None in in_axes",
        "jax.vmap(f) maps every argument along axis 0 unless in_axes says otherwise, so an argument "
        "shared by every example (weights, a bias, a scalar) is cut into examples too, and a scalar "
        "has no axis 0 to cut. Give in_axes one entry per argument, None for each shared one: "
        "jax.vmap(f, in_axes=(None, None, 0))(w, b, xs) maps xs's rows and hands every example the "
        "same w and b.",
        f"{DOCS}/_autosummary/jax.vmap.html", code="wrong-shape"),
    "cannot select an axis to squeeze out": Explanation(
        "a pmapped argument's leading axis does not match the number of devices",
        "pmap maps the leading axis onto devices one slice each, so its length must equal the "
        "number of devices (jax.device_count()). Reshape to (devices, per_device, ...) first.",
        f"{DOCS}/_autosummary/jax.pmap.html", code="device-count"),
    "must be >= the product of mesh_shape": Explanation(
        "a mesh asks for more devices than this machine has",
        "jax.make_mesh(shape, names) lays real devices out in a grid, so the product of its shape "
        "cannot exceed jax.device_count(). A shape written for one machine (8 devices) breaks on "
        "another: derive it from jax.device_count(), or use the mesh you are given.",
        f"{DOCS}/_autosummary/jax.make_mesh.html", code="device-count"),
    "doesn't match received axis_size": Explanation(
        "pmap was told a fixed number of devices that differs from the mapped axis",
        "pmap's axis_size (and its devices= list) must agree with the length of the mapped leading "
        "axis, which is the device count here. A number written for one machine breaks on another: "
        "leave them out, or derive them from jax.device_count().",
        f"{DOCS}/_autosummary/jax.pmap.html", code="device-count"),
    "ppermute sources and destinations must be unique": Explanation(
        "lax.ppermute's (source, destination) pairs do not fit the mesh axis",
        "Each pair names two positions 0..n-1 along the axis, n being its size (mesh.shape[name], or "
        "lax.axis_size(name) inside the per-device function), and each device may send once and "
        "receive once. Pairs written for another device count wrap around wrongly or repeat.",
        f"{DOCS}/_autosummary/jax.lax.ppermute.html", code="wrong-collective"),
    "slicing on sharded dims where out dim": Explanation(
        "a slice (or roll) of a dimension split over devices would not split evenly (ShardingTypeError)",
        "With Explicit mesh axes (jax.make_mesh's default) every result has a sharding JAX works out "
        "from its inputs; a slice of a split dimension that no longer divides by the number of devices "
        "has none, so JAX refuses rather than move data silently. Write the per-device step in "
        "jax.shard_map, or reshard the array first.",
        f"{DOCS}/notebooks/explicit-sharding.html", code="wrong-sharding"),
    "is not found in mesh": Explanation(
        "a PartitionSpec names a mesh axis the mesh does not have",
        "Each name in a PartitionSpec must be one of the mesh's axis names (mesh.axis_names): it says "
        "which mesh axis a dimension is split over. Use the names the mesh was built with.",
        f"{DOCS}/sharded-computation.html", code="wrong-sharding"),
    "Non-hashable static arguments": Explanation(
        "a static argument must be hashable, and this one is not (a list, dict or array)",
        "jit caches one compiled program per value of each static argument, keyed by its hash. "
        "Pass a tuple instead of a list, or make the argument an ordinary traced array.",
        f"{DOCS}/jit-compilation.html", code="static-argument"),
    "does not support item assignment": Explanation(
        "a JAX array was assigned to in place (JAX arrays are immutable)",
        "`x[i] = v` cannot work on an immutable array: JAX's functional updates, the `.at[...]` "
        "methods (set, add, multiply, min, max), return an updated copy and leave the original alone.",
        f"{DOCS}/_autosummary/jax.numpy.ndarray.at.html", code="mutates-input"),
    "is not a valid JAX type": Explanation(
        "JAX was handed a Python object that is neither an array nor a pytree of arrays",
        "Transformations and lax loops take arrays, or containers JAX knows how to flatten into "
        "arrays (tuples, lists, dicts, registered pytree classes). A Python iterator (zip, enumerate, "
        "map, a generator) or an unregistered class is none of these: pass the arrays themselves, or "
        "register the class as a pytree.",
        f"{DOCS}/pytrees.html", code="not-pytree"),
    "as an abstract array. The problematic value is of type": Explanation(
        "a jitted function got an argument that is neither an array nor a pytree of arrays",
        "jit traces arrays, and flattens the containers it knows (tuples, lists, dicts, registered "
        "pytree classes) into arrays. Anything else (an unregistered class, a string, an iterator) "
        "must be registered as a pytree, or marked static if it is a hashable setting.",
        f"{DOCS}/pytrees.html", code="not-pytree"),
    "output array is read-only": Explanation(
        "a NumPy in-place operation (`-=`, `+=`, `out=`) hit a read-only view of a JAX array",
        "np.asarray(jax_array) shares the JAX array's memory read-only: JAX arrays are immutable, "
        "and so are NumPy views of them. Compute a new array instead of updating one in place.",
        f"{DOCS}/notebooks/Common_Gotchas_in_JAX.html#pure-functions", code="mutates-input"),
    "as non-differentiable. Tracers cannot be passed as non-differentiable": Explanation(
        "a traced array was passed to a custom_vjp function in a nondiff_argnums position",
        "nondiff_argnums is for Python values that are not arrays (a function, a flag): under jit or "
        "vmap an array argument is a tracer, and custom_vjp refuses tracers there. Pass the array as "
        "an ordinary argument; bwd then returns a cotangent for it too (None, when it gets no gradient).",
        f"{DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html", code="traced-value"),
    "Custom VJP bwd rule must produce an output with the same container": Explanation(
        "a custom_vjp bwd rule returned the wrong structure",
        "bwd returns a tuple with one cotangent per argument of the primal function, in order, each "
        "shaped like its argument (None for an argument that gets no gradient): a single array, or a "
        "tuple of the wrong length, does not match the primal's arguments.",
        f"{DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html", code="error"),
    "can't apply forward-mode autodiff (jvp) to a custom_vjp function": Explanation(
        "forward-mode autodiff (jax.jvp, jacfwd) met a custom_vjp function",
        "custom_vjp defines reverse mode only, so jax.jvp and jax.jacfwd cannot run through it. "
        "custom_jvp defines the forward rule, and JAX derives reverse mode from it by transposition.",
        f"{DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html", code="wrong-tool"),
    "vmap is only supported for the pure_callback primitive when vmap_method is": Explanation(
        "jax.vmap met a pure_callback that does not say how it batches (no vmap_method)",
        "JAX cannot know whether the host function handles a batch. vmap_method='sequential' calls "
        "it once per example; 'expand_dims' and 'broadcast_all' call it once with the whole batch "
        "along a new leading axis, which the host function must then handle.",
        f"{DOCS}/external-callbacks.html", code="wrong-tool"),
    "Cannot `vmap` ordered IO callback": Explanation(
        "jax.vmap met an ordered io_callback",
        "An ordered effect must run in program order, one call after another, and a batch of examples "
        "has no such order. An unordered callback (or jax.debug.callback) runs once per example.",
        f"{DOCS}/external-callbacks.html", code="wrong-tool"),
    "custom PyTree node should return a (key_leaf_pairs, aux_data) tuple": BARE_CHILDREN,
    "is not implemented for `jax.sharding.AbstractMesh`": Explanation(
        "data was placed with a sharding over an AbstractMesh, which has no devices",
        "jax.sharding.get_abstract_mesh() gives the current mesh's axis names and sizes only: enough to "
        "describe a sharding while tracing, not to put data anywhere. To place data, name real devices: "
        "under jax.set_mesh a bare PartitionSpec does it (jax.device_put(x, P('data'))), and so does a "
        "NamedSharding of a concrete Mesh.",
        f"{DOCS}/_autosummary/jax.set_mesh.html", code="wrong-sharding"),
    "must produce a pair (list or tuple of length two) where the first element represents the primal "
    "output": Explanation(
        "a custom_vjp fwd rule returned only the output, not (output, residuals)",
        "fwd runs instead of the function in the forward pass and returns a pair: the output, and the "
        "residuals bwd will need (a tuple of values, or None when bwd needs nothing). bwd receives those "
        "residuals first, then the cotangent of the output.",
        f"{DOCS}/notebooks/Custom_derivative_rules_for_Python_code.html", code="error"),
    "Function to be exported must be the result of `jit`": Explanation(
        "jax.export.export was given a plain Python function",
        "export lowers what jit would compile, so it takes the jitted function, not the Python one. "
        "jit's options (static arguments, donation, shardings) become part of the artefact.",
        f"{DOCS}/export/export.html", code="not-jitted"),
    "Input shapes do not match the polymorphic shapes specification": Explanation(
        "an exported function was called with shapes its symbolic input shapes do not allow",
        "An exported artefact checks its inputs against the symbolic shapes it was exported with "
        "(a dimension declared as 2*b must be even, constraints must hold): call it with shapes that "
        "fit, or export it with symbolic shapes that cover them.",
        f"{DOCS}/export/shape_poly.html", code="wrong-shape"),
}


# An array hashed where Python needs a hashable value: "unhashable type: 'jaxlib._jax.ArrayImpl'", or a
# tracer's class inside a transformation ('DynamicJaxprTracer', 'JitTracer', 'BatchTracer'...).
_UNHASHABLE_ARRAY = re.compile(r"unhashable type: '[\w.]*(ArrayImpl|Tracer)'")
UNHASHABLE_ARRAY = Explanation(
    "an array was used where Python needs a hashable value, such as a shape",
    "Shapes, static arguments, dict keys and set members must be hashable Python values; a JAX array (a "
    "tracer, inside jit) is not. A common case: sharding.shard_shape(shape) takes the global shape, "
    "x.shape (a tuple of ints), and returns the block each device holds; handed x itself, it fails "
    "like this.",
    f"{DOCS}/notebooks/explicit-sharding.html", code="error")


def explain(exc: BaseException) -> Explanation | None:
    """The explanation for `exc`, or None for errors with no special lesson."""
    if isinstance(exc, KataFailure):
        return None
    message = str(exc)
    for fragment, known in _BY_MESSAGE.items():
        if fragment in message:
            return known
    if isinstance(exc, TypeError) and _UNHASHABLE_ARRAY.search(message):
        return UNHASHABLE_ARRAY
    if isinstance(exc, (TypeError, ValueError)) and "unpack" in message and _raised_in(exc, "flatten_func_impl"):
        return BARE_CHILDREN  # JAX's flatten took each child apart as a (key, child) pair
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


def _raised_in(exc: BaseException, function: str) -> bool:
    """Whether `exc` passed through JAX's own `function` (a generic Python error, told apart by where)."""
    frame = exc.__traceback__
    while frame is not None:
        code = frame.tb_frame.f_code
        if code.co_name == function and code.co_filename.startswith(_JAX_DIR):
            return True
        frame = frame.tb_next
    return False


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
