"""The subject's tripwires: what submission code may change without an audit event, looked for after
every return from it.

Python does not audit assigning a module's or a class's attribute, nor putting an entry in a dict, so
the audit hook (audit.py) cannot see those as they happen. Among what the subject's answers are made
with, each of these is a change, and ends the subject, reported, like a refusal of the hook:

- any name of a grader module rebound, added or removed (a name added can shadow a builtin the module
  calls);
- an entry of a grader module's dict, list or set put in, replaced or taken out (compared shallowly,
  by the identity of keys and values): a dispatch table given an entry of the submission's. The
  codec's tables are immutable besides (a tuple, a frozenset, a mapping proxy); the caches the grader
  fills while it serves are named in `_CHANGING`, with why;
- the functions, classes and modules named by the modules the grader's modules name (the standard
  library's `os.write` writes every reply), and JAX's compile-event machinery;
- every entry of the dict of each class the grader defines (the server and its bases, the codec's, the
  stand-ins'), of the standard library's context managers the server's flow runs through and of JAX's
  config `State` class (and its base in jaxlib) and of its `Flag` class, and the set of names there: a name added (a property
  shadowing an instance attribute) is a change too;
- every entry JAX's `Config` class held at start (its settings' properties, `update`): names JAX adds
  later (a library imported late defines its own option) are not changes; and every attribute of the
  server's `BoundSettings`, the settings' states it reads and writes with;
- every name of a JAX module that holds a setting (`jax._src.config.debug_nans`, jit's post hook
  `jax._src.api._post_hook_state`) or the config module (`dispatch.config`): JAX reads its settings
  through these, so a look-alike bound there would change what JAX does behind the settings read back;
- an instance attribute of a live grader object (the server, what it holds, the grader's module-level
  instances, `jax.config`) under the name of a callable of its class: `server._reply = f` shadows the
  method for every later `self._reply(...)`; and such an object's class swapped.

Snapshotted before the first request and compared by identity after every return from submission
code: `refuse_if_changed` is a plain function holding all it reads in its own closure, so that nothing
it calls is looked up on a class or module the submission could patch. What it cannot see: a change
made and undone between two of its runs (see docs/instructors.md), and the contents of the caches in
`_CHANGING`, of containers nested in a watched one, and of objects' own attributes other than those
that shadow a method."""

from __future__ import annotations

import operator
import sys
import types
from typing import Any

from grader.engine.remote.audit import REFUSE

# (module, name) -> why the grader itself changes the container there while it serves a request: the
# name is still watched (rebinding it is a change), the container's contents are not.
_CHANGING = {
    ("grader.checks.compiles", "_OPEN_LOGS"): "the count_compiles blocks open now",
    ("grader.checks.hostreads", "BUFFER_PROTOCOL_WATCHED"): "whether NumPy's reads can be watched, found on first use",
    ("grader.checks.executables", "_compiled"): "the executable of each program a check runs again",
    ("grader.checks.executables", "_described"): "the exact description of each program a check runs again",
    ("grader.checks.executables", "_refused"): "the executables that failed to run as loaded",
    ("grader.checks.executables", "_entries"): "how many executables the folder holds",
    ("grader.checks.executables", "_context_value"): "what every executable's key starts with, found on first use",
    ("grader.runtime.worker", "_WORKERS"): "the helper process of each device count",
    ("grader.runtime.worker", "_ANSWERS"): "each helper's answer, once per check and exercise",
    ("grader.engine.remote.codec.wire", "_serialized_exports"): "exported programs' bytes, weakly held",
    ("grader.engine.remote.codec.decoder", "_REMOTE_ERROR_CLASSES"): "a stand-in class per remote error",
    ("grader.engine.remote.codec.decoder", "_PLAIN_TEXT_CLASSES"): "an error class that prints as sent",
}
_CONTAINERS = (dict, list, set)


class Tripwires:
    """The snapshot, and `refuse_if_changed`, which compares what is there now with it."""

    def __init__(self, owners_by_name: list[Any], classes: list[type], every_name: list[types.ModuleType] = (),
                 entries_of: list[type] = (), objects: list[Any] = (), used: frozenset[str] | None = None,
                 names_of: list[tuple[types.ModuleType, list[str]]] = ()) -> None:
        """`owners_by_name`: modules (and classes) whose functions, classes and modules are watched;
        `names_of`: (module, names) whose names are watched whatever they hold;
        `classes`: those whose every entry is watched, and the names they hold; `every_name`: modules
        whose every name is watched, and the contents of their containers; `entries_of`: classes (or
        objects) whose entries at start are watched (names added are not changes); `objects`: live objects whose own
        attributes must not shadow a callable of their class; `used`: if given, the only names watched in
        `owners_by_name` (those the grader's code can look up: another name of NumPy's replaced changes
        only what the submission computes itself)."""
        spaces, getters, names, before, owners = [], [], [], [], []

        def watch(space: dict, kept: list, owner: str) -> None:
            if not kept:
                return
            kept = kept * 2 if len(kept) == 1 else kept  # an itemgetter of one name gives a value, not a tuple
            spaces.append(space)
            getters.append(operator.itemgetter(*kept))  # one C call reads them all
            names.extend(kept)
            before.extend(space[name] for name in kept)
            owners.extend([owner] * len(kept))

        every = {id(module): module for module in every_name}
        for module in owners_by_name:
            if id(module) not in every:
                space = vars(module)
                watch(space, [name for name, value in space.items() if (callable(value) or isinstance(
                    value, types.ModuleType)) and (used is None or name in used)], module.__name__)
        for owner in entries_of:
            watch(vars(owner), list(vars(owner)), getattr(owner, "__qualname__", type(owner).__qualname__))
        for module, kept in names_of:
            if id(module) not in every:
                watch(vars(module), list(kept), module.__name__)
        module_spaces, containers, container_names = [], {}, []
        for module in every.values():
            space = vars(module)
            module_spaces.append(space)
            watch(space, list(space), module.__name__)
            for name, value in space.items():
                if type(value) in _CONTAINERS and (module.__name__, name) not in _CHANGING \
                        and id(value) not in containers:
                    containers[id(value)] = value
                    container_names.append(f"{module.__name__}.{name}")
        dicts = [vars(cls) for cls in classes]  # live views of the classes' own dicts
        objects = list({id(obj): obj for obj in objects}.values())
        own = [vars(obj) for obj in objects]
        # the names of a method of its class each object has no attribute under at start
        shadowing = [_callable_names(type(obj)) - set(attributes) for obj, attributes in zip(objects, own)]
        from jax._src import monitoring

        listeners = list(getattr(monitoring, "_event_duration_secs_listeners", []))
        self.changed = _comparer(
            _Watched(spaces, getters, names, before, owners),
            _Watched(module_spaces, None, None, None, None),
            _Watched(list(containers.values()), None, container_names, None, None),
            _Watched(classes, None, None, dicts, None),
            _Watched(objects, None, None, own, shadowing),
            monitoring, listeners)
        self.refuse_if_changed = _refuser(self.changed, sys.audit)
        # names of modules and entries watched, classes, class entries, containers, container entries, objects
        self.watched = (len(names), len(classes), sum(map(len, dicts)), len(containers),
                        sum(map(len, containers.values())), len(objects))

    @staticmethod
    def of_grader_and_jax(server: Any = None) -> Tripwires:
        """What the subject's own answers are made with: the grader's modules and classes (the server,
        the codec, the checks a probe runs) and the modules they name, the server and the grader's
        objects it holds, JAX's compile-event machinery, its config machinery, its array and tracer
        classes. (The examiner computes every expected value with its own copies: patching NumPy or
        jax.numpy here changes nothing it judges with.)"""
        import jax
        from jax._src import array, config, core, monitoring

        grader = [module for name, module in sys.modules.items()
                  if module is not None and (name == "grader" or name.startswith("grader."))]
        named = [value for module in grader for value in vars(module).values() if isinstance(value, types.ModuleType)]
        modules = list({id(module): module for module in grader + named + [jax.monitoring, monitoring]}.values())
        # JAX's array classes by name only: a probe of the grader's swaps `ArrayImpl._value` (a property)
        # for one that notes host reads, from one request to a later one.
        jax_classes = [jax.Array, array.ArrayImpl, core.Tracer]
        classes = _grader_classes(grader)
        return Tripwires(modules + jax_classes, classes + _flow_classes() + _mutable_mro(config.State) + [config.Flag],
                         every_name=grader,
                         entries_of=[type(jax.config)] + ([] if server is None else [server.settings]),
                         objects=_live_objects(server, grader, classes) + [jax.config], used=_names_used_by(grader),
                         names_of=_setting_holders())


def _setting_holders() -> list[tuple[types.ModuleType, list[str]]]:
    """Each JAX module's names that hold a setting (a config `State`, a `Flag`, an unregistered
    config such as jit's post hook), `jax.config` or the config module itself: JAX reads a setting
    through these (`config.debug_nans.value`), never through the tables the settings are read back
    with, so a look-alike bound under one of them changes what JAX does while the read-back sees the
    caller's value."""
    from jax._src import config

    kinds = (config.State, config.Flag, config.config_ext.Config, type(config.config))
    found = []
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "jax" or name.startswith(("jax.", "jaxlib."))):
            continue
        kept = [key for key, value in list(vars(module).items()) if value is config or isinstance(value, kinds)]
        if kept:
            found.append((module, kept))
    return found


def _names_used_by(modules: list[types.ModuleType]) -> frozenset[str]:
    """Every name the code of these modules can look up on another object: the names its code objects
    load (globals, attributes, methods) and its string constants (a `getattr` by name), gathered from
    their functions, classes and nested code."""
    found: set[str] = set()
    seen: set[int] = set()
    todo = [value for module in modules for value in vars(module).values()]
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, types.CodeType):
            found.update(value.co_names)
            todo += [const for const in value.co_consts if isinstance(const, (types.CodeType, str, tuple, frozenset))]
        elif isinstance(value, str):
            found.add(value)
        elif isinstance(value, (tuple, frozenset)):
            todo += list(value)
        elif isinstance(value, types.FunctionType):
            todo.append(value.__code__)
        elif isinstance(value, (staticmethod, classmethod)):
            todo.append(value.__func__)
        elif isinstance(value, property):
            todo += [value.fget, value.fset, value.fdel]
        elif isinstance(value, type) and value.__module__.startswith("grader"):
            todo += list(vars(value).values())
    return frozenset(found)


class _Watched:
    """One kind of thing watched: where it lives, how it is read, what it was."""

    __slots__ = ("where", "read", "names", "then", "owners")

    def __init__(self, where: list, read: Any, names: Any, then: Any, owners: Any) -> None:
        self.where, self.read, self.names, self.then, self.owners = where, read, names, then, owners


def _callable_names(cls: type) -> frozenset[str]:
    """The names under which `cls` (or a base) holds a method: an instance attribute there shadows it."""
    return frozenset(name for base in cls.__mro__ for name, value in vars(base).items()
                     if callable(value) or isinstance(value, (staticmethod, classmethod)))


def _live_objects(server: Any, modules: list[types.ModuleType], classes: list[type]) -> list[Any]:
    """The server, the grader's objects it holds and those the grader's modules hold: each an instance
    of a grader class with attributes of its own."""
    grader_classes = {id(cls) for cls in classes}
    candidates = [] if server is None else [server, *vars(server).values()]
    candidates += [value for module in modules for value in vars(module).values()]
    return [obj for obj in candidates if id(type(obj)) in grader_classes and hasattr(obj, "__dict__")]


def grader_classes() -> list[type]:
    """The classes of every grader module loaded now (see `_grader_classes`)."""
    return _grader_classes([module for name, module in sys.modules.items()
                            if module is not None and (name == "grader" or name.startswith("grader."))])


def _grader_classes(modules: list[types.ModuleType]) -> list[type]:
    """The classes the grader's modules define, their nested classes and the grader's bases of each."""
    defined_in = {module.__name__ for module in modules}
    found: dict[int, type] = {}
    todo = [value for module in modules for value in vars(module).values() if isinstance(value, type)]
    while todo:
        cls = todo.pop()
        if id(cls) in found or getattr(cls, "__module__", None) not in defined_in:
            continue
        found[id(cls)] = cls
        todo += [value for value in vars(cls).values() if isinstance(value, type)]
        todo += cls.__mro__[1:]
    return list(found.values())


def _mutable_mro(*classes: type) -> list[type]:
    """Each class and its bases, less the built-in ones (Python refuses to change those itself)."""
    return list({id(base): base for cls in classes for base in cls.__mro__ if base.__module__ != "builtins"}.values())


def _flow_classes() -> list[type]:
    """The standard library's classes whose methods the server's flow calls right around submission
    code: a `with` block's exit (a patched `__exit__` would be handed the context manager, and what it
    was made with)."""
    import contextlib
    import warnings

    return _mutable_mro(contextlib._GeneratorContextManager, warnings.catch_warnings)


def _comparer(entries: _Watched, modules: _Watched, containers: _Watched, classes: _Watched, objects: _Watched,
              monitoring: types.ModuleType, listeners: list) -> Any:
    """The comparison, with every callable it uses bound now: C loops over flat lists, a few
    microseconds per hundred entries."""
    import itertools

    flat, proxy_keys, proxy_values = itertools.chain.from_iterable, types.MappingProxyType.keys, \
        types.MappingProxyType.values
    call, is_, is_not, repeat, isdisjoint = operator.call, operator.is_, operator.is_not, itertools.repeat, \
        frozenset.isdisjoint
    any_, all_, map_, list_, len_, type_, vars_, getattr_, next_, enumerate_, zip_ = any, all, map, list, len, \
        type, vars, getattr, next, enumerate, zip
    spaces, getters, names, before, owners = entries.where, entries.read, entries.names, entries.then, entries.owners
    module_spaces, module_keys = modules.where, list(flat(map(dict.keys, modules.where)))
    module_lengths = list(map(len, module_spaces))
    watched, container_names = containers.where, containers.names
    dicts = [c for c in watched if type(c) is dict]
    rows = [c for c in watched if type(c) is not dict]
    lengths_before = list(map(len, dicts + rows))
    entries_before = list(flat(map(dict.keys, dicts))) + list(flat(map(dict.values, dicts))) + list(flat(rows))
    every_container = dicts + rows
    class_dicts = classes.then
    keys_before = list(flat(map(proxy_keys, class_dicts)))
    values_before = list(flat(map(proxy_values, class_dicts)))
    snapshots = [dict(space) for space in class_dicts]  # to say what changed
    live, own, shadowing = objects.where, objects.then, objects.owners
    kinds_before = list(map(type, live))
    dict_keys, dict_values = dict.keys, dict.values
    moved = _first_look(entries, module_spaces, every_container, rows, class_dicts, objects)

    def changed() -> str:
        if not moved():  # nothing moved (the usual answer, in one pass): only what it does not cover
            if not all_(map_(isdisjoint, shadowing, own)):
                return _object_change(live, kinds_before, shadowing, own)
            current = getattr_(monitoring, "_event_duration_secs_listeners", ())
            if not all_(any_(map_(is_, repeat(listener), current)) for listener in listeners):
                return "removed the grader's watch on JAX's compile events"
            return ""
        try:
            now = list_(flat(map_(call, getters, spaces)))
        except KeyError as missing:
            return f"removed {missing}"
        if any_(map_(is_not, now, before)):
            at = next_(i for i, (a, b) in enumerate_(zip_(now, before)) if a is not b)
            return f"replaced {owners[at]}.{names[at]}"
        if list_(map_(len_, module_spaces)) != module_lengths:  # a name added (one taken out fails above)
            return _module_change(module_spaces, module_keys)
        if list_(map_(len_, every_container)) != lengths_before or any_(map_(
                is_not, list_(flat(map_(dict_keys, dicts))) + list_(flat(map_(dict_values, dicts))) + list_(flat(rows)),
                entries_before)):
            return _container_change(watched, container_names)
        keys_now = list_(flat(map_(proxy_keys, class_dicts)))
        if len_(keys_now) != len_(keys_before) or any_(map_(is_not, keys_now, keys_before)) \
                or any_(map_(is_not, list_(flat(map_(proxy_values, class_dicts))), values_before)):
            return _class_change(classes.where, snapshots)
        if any_(map_(is_not, map_(type_, live), kinds_before)) or any_(map_(is_not, map_(vars_, live), own)) \
                or not all_(map_(isdisjoint, shadowing, own)):
            return _object_change(live, kinds_before, shadowing, own)
        current = getattr_(monitoring, "_event_duration_secs_listeners", ())
        if not all_(any_(map_(is_, repeat(listener), current)) for listener in listeners):
            return "removed the grader's watch on JAX's compile events"
        return ""

    originals = [list(c.items()) if type(c) is dict else list(c) for c in watched]

    def _container_change(watched: list, container_names: list) -> str:
        """Which container changed (only once a change is found)."""
        for container, then, name in zip(watched, originals, container_names):
            now = list(container.items()) if type(container) is dict else list(container)
            pairs = type(container) is dict
            if len(now) != len(then) or any((a[0] is not b[0] or a[1] is not b[1]) if pairs else a is not b
                                            for a, b in zip(now, then)):
                return f"changed the contents of {name}"
        return "changed a table the grader relies on"

    return changed


def _module_change(spaces: list, keys_before: list) -> str:
    """Which grader module gained or lost a name (only once a change is found)."""
    known = set(keys_before)
    for space in spaces:
        added = [name for name in space if name not in known]
        if added:
            return f"added {space.get('__name__', '?')}.{added[0]}"
    return "removed a name of a grader module"


def _class_change(classes: list, snapshots: list) -> str:
    """Which class changed, and how (only once a change is found: this one may be slow)."""
    for cls, then in zip(classes, snapshots):
        now = dict(vars(cls))
        for name in sorted(set(then) | set(now), key=str):
            if name not in then:
                return f"added {cls.__qualname__}.{name}"
            if name not in now or now[name] is not then[name]:
                return f"replaced {cls.__qualname__}.{name}"
    return "changed a class the grader relies on"


def _object_change(live: list, kinds_before: list, shadowing: list, own: list) -> str:
    """Which live object changed, and how (only once a change is found)."""
    for obj, kind, names, attributes in zip(live, kinds_before, shadowing, own):
        if type(obj) is not kind:
            return f"swapped the class of the grader's {kind.__qualname__} object"
        if vars(obj) is not attributes:
            return f"replaced the attributes (__dict__) of the grader's {kind.__qualname__} object"
        shadowed = sorted(names & set(vars(obj)))
        if shadowed:
            return f"shadowed {kind.__qualname__}.{shadowed[0]} with an attribute of the object"
    return "changed an object the grader relies on"


def _first_look(entries: _Watched, module_spaces: list, containers: list, rows: list, class_dicts: list,
                objects: _Watched) -> Any:
    """Whether anything watched may have changed, in one identity comparison over every reference at
    once (C loops, no list built): the names read from modules watched name by name; the keys and
    values of every module watched whole, container and class dict, in order; each object's class
    and attribute dict; every size. `changed` names what changed only when this says something did;
    it covers all `changed` compares but JAX's listeners and shadowed methods, which `changed` checks
    every time."""
    import itertools

    flat, chain, call, is_not = itertools.chain.from_iterable, itertools.chain, operator.call, operator.is_not
    whole = {id(space) for space in module_spaces}
    by_name = [(get, space) for get, space in zip(entries.read, entries.where) if id(space) not in whole]
    getters, spaces = [get for get, _ in by_name], [space for _, space in by_name]
    sized = module_spaces + containers + class_dicts
    mappings = module_spaces + [c for c in containers if type(c) is dict] + class_dicts
    live = objects.where
    key_views = [type(m).keys for m in mappings]
    value_views = [type(m).values for m in mappings]
    any_, map_, list_, len_, type_, vars_ = any, map, list, len, type, vars

    def now() -> Any:
        return chain(flat(map_(call, getters, spaces)), flat(map_(call, key_views, mappings)),
                     flat(map_(call, value_views, mappings)), flat(rows), map_(type_, live), map_(vars_, live))

    lengths, then = list(map(len, sized)), list(now())

    def moved() -> bool:
        try:
            return list_(map_(len_, sized)) != lengths or any_(map_(is_not, now(), then))
        except BaseException:  # noqa: BLE001 - a name taken out, a comparison made to fail: look closer
            return True

    return moved


def _refuser(changed: Any, raise_event: Any) -> Any:
    def refuse_if_changed() -> None:
        """End the subject, reported, if the request changed what no exercise changes."""
        try:
            what = changed()
        except BaseException:  # noqa: BLE001 - a comparison made to fail is a change all the same
            what = "changed what the grader's answers are made with"
        if what:
            raise_event(REFUSE, f"{what}, which an exercise never needs")  # `sys.audit`, held since startup

    return refuse_if_changed
