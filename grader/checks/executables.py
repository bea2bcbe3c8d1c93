"""The programs the checks build to run a traced program again (nudged, its values read, a loop's
step alone), compiled once: remembered by an exact description of what they compute, in this
process and, where the grader gives them a folder of their own, on disk.

JAX's persistent cache needs a program lowered before it can look it up (its key is a hash of the
lowered program), and for these small programs the lowering costs more than the compile it saves.
So the key here is taken before any tracing: the traced program's equations, written out exactly
(every parameter, literal and constant by value, shardings by their devices), what the check does
with them, the arguments' types and placement, JAX's settings and version, and the source of the
grader's checks. A program this description cannot state exactly (a callback, an effect, a
parameter of a type it does not know) is compiled as before, never remembered.

The folder holds executables the grader's own processes compiled; nothing a submission runs can
write it (the grader names it only where that holds: see grader.engine.grading).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.extend
import numpy as np

from grader.runtime.jaxsetup import EXECUTABLES_ENV

_IN_MEMORY_LIMIT = 512
_FOLDER_LIMIT = 4096  # entries (some 25 KB each): a class's worth of programs, never without bound
_compiled: dict[str, tuple[Any, Any]] = {}  # key -> (executable, facts)
_described: dict[int, tuple[Any, Description]] = {}  # id(program) -> (program, its description)
_refused: set[str] = set()  # keys whose executable failed to run as loaded


class Unstated(Exception):
    """The program holds something the description cannot state exactly."""


@dataclasses.dataclass(frozen=True)
class Description:
    """A traced program written out exactly. `position` numbers its equations and variables (nested
    ones included) by their order in it: what a check says of them by id, said by position."""

    text: str  # its top-level constants by type only: a check hands them in as arguments
    position: dict[int, int]
    constants: str  # those constants by value, for a check that compiles them into its program

    def positions(self, ids: Any) -> tuple[int, ...]:
        """The positions of these equations or variables (by id), sorted; Unstated for one not in it."""
        try:
            return tuple(sorted(self.position[i] for i in ids))
        except KeyError:
            raise Unstated("an equation or variable outside the program") from None


def describe(closed: Any) -> Description | None:
    """The exact description of a traced program (a ClosedJaxpr or Jaxpr), None where it holds what
    cannot be stated (then it is compiled afresh each time)."""
    held = _described.get(id(closed))
    if held is not None and held[0] is closed:
        return held[1]
    writer = _Writer()
    try:
        writer.program(closed, top=True)
        constants = repr([writer.value(c) for c in getattr(closed, "consts", ())])
    except Exception:  # noqa: BLE001 - Unstated, or a part it cannot even read: never remembered
        return None
    found = Description("\n".join(writer.out), writer.position, constants)
    if len(_described) > 64:
        _described.clear()
    _described[id(closed)] = (closed, found)
    return found


def run(fn: Callable[..., Any], args: tuple, what: tuple | None,
        facts: Callable[[], Any] = lambda: None) -> tuple[Any, Any]:
    """`jax.jit(fn)(*args)`, and `facts()` as tracing `fn` left them (what it found out on the way,
    in positions, not ids). `what` states everything `fn` computes from its arguments' types (the
    program's description and what is done with it); None: compile afresh, remember nothing."""
    if what is None:
        return jax.jit(fn)(*args), facts()
    try:
        key = _key(what, args)
    except Exception:  # noqa: BLE001 - an argument it cannot state: compiled afresh
        return jax.jit(fn)(*args), facts()
    found = _compiled.get(key) or _load(key)
    if found is not None:
        executable, known = found
        try:
            return jax.block_until_ready(executable(*args)), known
        except Exception:  # noqa: BLE001 - one that does not run as loaded (XLA cannot restore every
            _refuse(key)  # program it wrote): compiled here from now on, as if never remembered
    compiled = jax.jit(fn).lower(*args).compile()
    known = facts()
    _remember(key, compiled, known)
    return compiled(*args), known


# --- the key ---------------------------------------------------------------------------------------


def _key(what: tuple, args: tuple) -> str:
    settings = repr(_setting_values())
    if " at 0x" in settings:  # an object known by its address: the same text could stand for another
        raise Unstated("a setting known by its address")
    digest = hashlib.sha256(_context_once())
    digest.update(settings.encode())
    # The mesh jax.set_mesh made current: the settings hold only its abstract shape, and a program
    # whose shardings name bare specs is laid out on its devices.
    digest.update(_sharding(jax.sharding.get_mesh()).encode())
    digest.update(repr(what).encode())
    digest.update(str(jax.tree.structure(args)).encode())
    for leaf in jax.tree.leaves(args):
        digest.update(_argument(leaf).encode())
    return digest.hexdigest()


def _argument(leaf: Any) -> str:
    aval = jax.typeof(leaf)
    placed = ""
    if isinstance(leaf, jax.Array):
        placed = f"{_sharding(leaf.sharding)}|{leaf.committed}"
    return f"{type(leaf).__name__}|{aval.dtype}|{aval.shape}|{aval.weak_type}|{placed};"


def _setting_values() -> tuple:
    from jax._src import config

    def stated(v: Any) -> Any:  # the axis environment's repr is its address: its fields instead
        if type(v).__name__ == "AxisEnv":
            return tuple((name, repr(getattr(v, name))) for name in type(v).__slots__ if name != "__weakref__")
        return v

    return tuple(stated(v) for v in config.trace_context())


def _context() -> bytes:
    import jaxlib

    digest = hashlib.sha256(f"{jax.__version__}|{jaxlib.__version__}|{jax.default_backend()}|".encode())
    digest.update(repr([(d.platform, d.id, d.process_index) for d in jax.devices()]).encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):  # the checks' own code: what they build
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.digest()


_context_value: list[bytes] = []


def _context_once() -> bytes:
    if not _context_value:
        _context_value.append(_context())
    return _context_value[0]


# --- remembering -----------------------------------------------------------------------------------


def _folder() -> Path | None:
    named = os.environ.get(EXECUTABLES_ENV)
    return Path(named) if named else None


def _refuse(key: str) -> None:
    """Never serve this key again, in this process or from the folder."""
    _refused.add(key)
    _compiled.pop(key, None)
    folder = _folder()
    if folder is not None:
        try:
            (folder / f"{key}.refused").touch()
            (folder / f"{key}.exe").unlink(missing_ok=True)
        except OSError:
            pass


def _load(key: str) -> tuple[Any, Any] | None:
    folder = _folder()
    if folder is None or key in _refused or (folder / f"{key}.refused").exists():
        return None
    try:
        payload, in_tree, out_tree, ids, known = pickle.loads((folder / f"{key}.exe").read_bytes())
        from jax.experimental import serialize_executable

        by_id = {d.id: d for d in jax.devices()}
        executable = serialize_executable.deserialize_and_load(payload, in_tree, out_tree,
                                                               execution_devices=[by_id[i] for i in ids])
    except Exception:  # noqa: BLE001 - missing, torn or from another build: compile it
        return None
    _keep(key, executable, known)
    return executable, known


def _remember(key: str, compiled: Any, known: Any) -> None:
    _keep(key, compiled, known)
    folder = _folder()
    if folder is None or key in _refused or (folder / f"{key}.refused").exists() or not _room(folder):
        return
    try:
        from jax.experimental import serialize_executable

        payload, in_tree, out_tree = serialize_executable.serialize(compiled)
        ids = [d.id for d in compiled.runtime_executable().local_devices()]  # where it runs, in order
        data = pickle.dumps((payload, in_tree, out_tree, ids, known))
        folder.mkdir(parents=True, exist_ok=True)
        part = folder / f"{key}.{os.getpid()}.part"
        part.write_bytes(data)
        os.replace(part, folder / f"{key}.exe")
    except Exception:  # noqa: BLE001 - one that cannot be written (a host callback) is kept in memory only
        pass


_entries: list[int] = []  # the folder's entries, counted at this process's first write, and its writes since


def _room(folder: Path) -> bool:
    """Whether one more entry fits. A folder found full at this process's first write is emptied: it
    is a cache, and entries of earlier versions of the checks (never found again) would else fill it."""
    if not _entries:
        try:
            found = list(os.scandir(folder))
        except OSError:
            found = []
        if len(found) >= _FOLDER_LIMIT:
            for entry in found:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass  # another examiner emptied it first
            found = []
        _entries.append(len(found))
    _entries[0] += 1
    return _entries[0] <= _FOLDER_LIMIT


def _keep(key: str, executable: Any, known: Any) -> None:
    if len(_compiled) >= _IN_MEMORY_LIMIT:
        _compiled.clear()
    _compiled[key] = (executable, known)


# --- the description -------------------------------------------------------------------------------

# Parameters that only differentiation reads: running the program never calls them.
_UNRUN = {"custom_jvp_call": {"jvp_jaxpr_fun", "jvp_jaxpr_thunk"},
          "custom_vjp_call": {"fwd_jaxpr_thunk", "bwd", "out_trees"}}
_PLAIN = (type(None), bool, int, float, complex, str)


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.position: dict[int, int] = {}

    def number(self, thing: Any) -> int:
        if id(thing) not in self.position:
            self.position[id(thing)] = len(self.position)
        return self.position[id(thing)]

    def program(self, closed: Any, top: bool = False) -> None:
        jaxpr = getattr(closed, "jaxpr", closed)
        if jaxpr.effects:
            raise Unstated("effects")
        consts = [_argument(c) if top else self.value(c) for c in getattr(closed, "consts", ())]
        self.out.append(f"program consts={consts} constvars={[self.var(v) for v in jaxpr.constvars]} "
                        f"in={[self.var(v) for v in jaxpr.invars]}")
        for eqn in jaxpr.eqns:
            if eqn.effects:
                raise Unstated("effects")
            skip = _UNRUN.get(eqn.primitive.name, set())
            params = [(k, self.value(v)) for k, v in sorted(eqn.params.items()) if k not in skip]
            self.out.append(f"eqn {self.number(eqn)} {eqn.primitive.name} {self.context(eqn.ctx)} "
                            f"in={[self.var(v) for v in eqn.invars]} params={params} "
                            f"out={[self.var(v) for v in eqn.outvars]}")
        self.out.append(f"return {[self.var(v) for v in jaxpr.outvars]}")

    def var(self, v: Any) -> str:
        if isinstance(v, jax.extend.core.Literal):
            return f"literal({self.value(v.val)}:{self.aval(v.aval)})"
        return f"v{self.number(v)}:{self.aval(v.aval)}"

    def aval(self, aval: Any) -> str:
        if type(aval).__name__ != "ShapedArray":
            raise Unstated(f"a value of type {type(aval).__name__}")
        sharding = getattr(aval, "sharding", None)
        return (f"{self.value(aval.dtype)}{list(aval.shape)}w{int(aval.weak_type)}"
                f"{'' if sharding is None else self.value(sharding)}{getattr(aval, 'memory_space', '')}"
                f"{sorted(map(str, getattr(aval, 'vma', ())))}")

    def context(self, ctx: Any) -> str:
        fields = ("compute_type", "threefry_partitionable", "cur_abstract_mesh", "remove_size_one_mesh_axis",
                  "xla_metadata")
        return repr([self.value(getattr(ctx, name, None)) for name in fields])

    def value(self, value: Any) -> str:  # noqa: C901 - one case per kind of parameter, flat on purpose
        kind = type(value)
        if kind in _PLAIN:
            return f"{kind.__name__}:{value!r}"
        if isinstance(value, (int, float, complex)) and isinstance(getattr(value, "dtype", None), np.dtype):
            plain = next(t for t in (bool, int, float, complex) if isinstance(value, t))
            return f"{kind.__name__}:{plain(value)!r}:{value.dtype}"  # a literal JAX typed
        if isinstance(value, enum.Enum):
            return f"{kind.__module__}.{kind.__qualname__}.{value.name}"
        if isinstance(value, (np.ndarray, np.generic)):
            array = np.asarray(value)
            if array.dtype == object:
                raise Unstated("an object array")
            return (f"array:{array.dtype}{list(array.shape)}:"
                    f"{hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()}")
        if isinstance(value, np.dtype) or _is_key_dtype(value):
            return f"dtype:{kind.__qualname__}:{value}"
        if isinstance(value, jax.Array):
            if jax.dtypes.issubdtype(value.dtype, jax.dtypes.extended):
                return f"key:{value.dtype}:{self.value(jax.random.key_data(value))}"
            return f"{self.value(np.asarray(value))}@{_sharding(value.sharding)}"
        if isinstance(value, jax.extend.core.ClosedJaxpr) or isinstance(value, jax.extend.core.Jaxpr):
            inner = _Writer()
            inner.position = self.position  # one numbering for the whole program
            inner.program(value)
            return "{" + "\n".join(inner.out) + "}"
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            return f"{kind.__qualname__}({[self.value(v) for v in value]})"
        if kind in (tuple, list):
            return f"{kind.__name__}[{','.join(self.value(v) for v in value)}]"
        if kind in (frozenset, set):
            return f"set[{','.join(sorted(self.value(v) for v in value))}]"
        if kind is dict:
            return f"dict[{','.join(f'{self.value(k)}={self.value(v)}' for k, v in sorted(value.items(), key=repr))}]"
        if isinstance(value, (jax.sharding.Sharding, jax.sharding.Mesh, jax.sharding.PartitionSpec)) or \
                kind.__name__ in ("AbstractMesh", "UnspecifiedValue", "AUTO"):
            return _sharding(value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return f"{kind.__qualname__}({[(f.name, self.value(getattr(value, f.name))) for f in dataclasses.fields(value)]})"
        raise Unstated(f"a parameter of type {kind.__qualname__}")


def _is_key_dtype(value: Any) -> bool:
    try:
        return jax.dtypes.issubdtype(value, jax.dtypes.extended)
    except TypeError:
        return False


def _sharding(value: Any) -> str:
    """A sharding, mesh or spec with the devices it names (a Mesh's repr leaves them out)."""
    if isinstance(value, jax.sharding.Mesh):
        return (f"Mesh({[None if d is None else d.id for d in value.devices.flat]}, {list(value.devices.shape)}, {value.axis_names!r}, "
                f"{value.axis_types!r})")
    if isinstance(value, jax.sharding.NamedSharding):
        return f"NamedSharding({_sharding(value.mesh)}, {value.spec!r}, {value.memory_kind!r})"
    if isinstance(value, jax.sharding.SingleDeviceSharding):
        return f"SingleDeviceSharding({next(iter(value.device_set)).id}, {value.memory_kind!r})"
    if isinstance(value, jax.sharding.PartitionSpec) or type(value).__name__ in ("AbstractMesh", "UnspecifiedValue",
                                                                                  "AUTO"):
        return repr(value)
    raise Unstated(f"a sharding of type {type(value).__qualname__}")
