"""Seal the grader's classes in the subject, before any submission code runs.

Python lets any code assign a class attribute (`Server._reply = f`), and 3.11
raises no audit event for it, so a submission could swap a method of the
server, the codec or a probe and put it back before the tripwires look. A
class marked immutable (the flag CPython gives its built-in types) refuses
every assignment instead: `Server._reply = f`, `setattr`, `type.__setattr__`
all raise TypeError. The only way around it is to write the interpreter's
memory (ctypes) or to reach a class's real dict (gc), both refused by the
audit hook. The tripwires still compare every entry of these classes, for
an interpreter where the flag cannot be set.
"""

from __future__ import annotations

import ctypes
import re
import sys

_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE
_FLAGS_OFFSET = 21 * 8  # tp_flags in CPython 3.10-3.12's PyTypeObject, 64-bit: checked against __flags__


_REFUSED_TEXT = re.compile(r"cannot (?:set|delete) '([^']{1,100})' attribute of immutable type '([^']{1,100})'")


def seal(classes: list[type]) -> int:
    """Mark each class immutable; the number sealed (0 where the type layout is not the one known)."""
    if sys.implementation.name != "cpython" or ctypes.sizeof(ctypes.c_void_p) != 8 \
            or not (3, 10) <= sys.version_info[:2] <= (3, 12):
        return 0
    sealed = 0
    for cls in classes:
        flags = ctypes.c_ulong.from_address(id(cls) + _FLAGS_OFFSET)
        if flags.value != cls.__flags__:  # not the layout known: leave it to the tripwires
            continue
        flags.value |= _IMMUTABLE_TYPE
        sealed += 1
    return sealed


def watch_refusals_nobody_catches() -> None:
    """Flag a sealed class's refusal that Python only prints: raised in a `__del__` or a callback,
    it never reaches the request's answer. A submission may replace this hook; what it then hides
    is a flag, never the change, which the seal refused all the same."""
    from grader.engine.remote.audit import refuse_now  # bound now, before any submission code runs

    printed = sys.unraisablehook

    def hook(unraisable) -> None:
        refused = change_refused(unraisable.exc_value)
        if refused:
            refuse_now(refused)
        printed(unraisable)

    sys.unraisablehook = hook


def change_refused(error: BaseException | None) -> str:
    """What a sealed class refused, if `error` is that refusal (Python's own TypeError, read without
    running the submission's code), for the review flag; "" otherwise."""
    if type(error) is not TypeError or len(error.args) != 1 or type(error.args[0]) is not str:
        return ""
    found = _REFUSED_TEXT.search(error.args[0])
    if found is None or not _is_sealed_grader_class(found.group(2)):
        return ""
    return f"changed {found.group(2)}.{found.group(1)}, a class of the grader's, which an exercise never needs"


def _is_sealed_grader_class(name: str) -> bool:
    from grader.engine.remote.tripwires import grader_classes

    return any(cls.__name__ == name and cls.__flags__ & _IMMUTABLE_TYPE for cls in grader_classes())
