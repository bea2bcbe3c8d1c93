"""Importing an exercise file: a fresh module per check, import failures as lessons.

Shared by the pytest plugin (a learner's run checks in-process) and the
subject process (a graded run imports submissions only there).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

_module_ids = itertools.count()


class ExerciseModule:
    """The learner's module, with friendly failures for missing names.

    Attribute reads go to the module; a missing one fails the check with
    "has no function ..." instead of an AttributeError traceback. Attribute
    writes go to the module too, so checks can change its globals.
    """

    def __init__(self, module: ModuleType, label: str) -> None:
        object.__setattr__(self, "module", module)
        object.__setattr__(self, "label", label)

    def __getattr__(self, name: str) -> Any:
        from grader.core.failures import fail

        try:
            return getattr(self.module, name)
        except AttributeError:
            fail(f"{self.label} has no `{name}`: the checks use it by that name. Keep the names "
                 f"and signatures the exercise gives (restore the stub with git if needed).", "missing")

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.module, name, value)


# Raised (sys.audit) with each exercise module's namespace before its code runs: where the grader's
# audit hook listens (the subject), every frame running with these globals is the submission's.
EXERCISE_NAMESPACE = "katas.exercise_namespace"
# Raised (sys.audit) with (function, True) when a check points an exercise function's code at another
# function (`checks.swap_function`), and (function, False) when it puts the code back: where the audit
# hook listens, the submission may not read that function's `__code__` in between.
SWAPPED_FUNCTION = "katas.swapped_function"


def load_exercise(path: Path, label: str) -> ExerciseModule:
    """Import a fresh copy of the exercise file; import problems become check failures."""
    from grader.core.failures import KataFailure

    if not path.is_file():
        raise KataFailure(f"{label} is missing (looked for {path.name} in {path.parent}).", "missing")
    name = f"kata_{path.stem}_{next(_module_ids)}"
    spec = importlib.util.spec_from_file_location(name, path, loader=_SameCodeLoader(name, str(path)))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # some libraries (dataclasses, pickling) look modules up here
    sys.audit(EXERCISE_NAMESPACE, module.__dict__)
    try:
        _import(spec, module, label)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return ExerciseModule(module, label)


class _SameCodeLoader(importlib.machinery.SourceFileLoader):
    """Compiles each version of a file once: every check imports the exercise afresh (a new
    module, new globals), but the same source makes the same code object."""

    _compiled: dict[tuple[str, bytes], Any] = {}

    def get_code(self, fullname: str) -> Any:
        source = self.get_data(self.path)
        key = (self.path, hashlib.sha256(source).digest())
        if key not in self._compiled:
            self._compiled[key] = self.source_to_code(source, self.path)
        return self._compiled[key]


def _import(spec: Any, module: ModuleType, label: str) -> None:
    from grader.core.failures import KataFailure

    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        raise KataFailure(f"{label} has a syntax error on line {error.lineno}: {error.msg}",
                          "syntax-error") from None
    except SystemExit as error:
        raise KataFailure(f"{label} called exit ({error.code!r}) while being imported", "import-error") from None
    except NotImplementedError:
        raise
    except Exception as error:  # noqa: BLE001 - any import failure is the learner's to fix
        code = "memory-limit" if isinstance(error, MemoryError) else "import-error"
        raise KataFailure(f"importing {label} raised {type(error).__name__}: {error}", code) from error
