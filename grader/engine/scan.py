"""A static look at submission files for code that reaches into the grader.

Exercises never need to exit the process, import pytest or the grader, walk
frames, patch JAX or NumPy, write files, open sockets or start processes.
Code that does is still graded as usual, but the submission is marked
**needs review** with the offending lines, so a person decides.
"""

from __future__ import annotations

import ast
import threading
from dataclasses import dataclass
from pathlib import Path

# Importing any of these is flagged, with the reason.
MODULES = {
    "pytest": "imports the test framework", "_pytest": "imports the test framework",
    "grader": "imports the grader", "gc": "can reach the grader's objects",
    "inspect": "can walk frames and read the checks", "ctypes": "can write to memory directly",
    "subprocess": "starts processes", "multiprocessing": "starts processes", "pty": "starts processes",
    "socket": "opens network connections", "signal": "changes signal handling",
    "importlib": "imports modules by computed names", "builtins": "can patch built-in functions",
    "atexit": "runs code at exit", "faulthandler": "changes crash handling",
    "shutil": "copies or deletes files", "threading": "runs code on the side",
    "jax.monitoring": "can fake JAX's compile events", "jax._src": "reaches into JAX internals",
}
# Names reached through a module, as dotted paths after resolving import aliases
# (`import sys as s; s.modules` is `sys.modules`), with the reason.
NAMES = {
    "os._exit": "exits the process", "os.abort": "exits the process", "sys.exit": "exits the process",
    "os.system": "runs a shell command", "os.popen": "runs a shell command",
    "os.kill": "sends signals", "os.killpg": "sends signals", "os.fork": "starts processes",
    "os.setsid": "escapes the grader's process group",
    "os.remove": "deletes files", "os.unlink": "deletes files", "os.rmdir": "deletes files",
    "os.rename": "moves files", "os.replace": "moves files", "os.chmod": "changes file permissions",
    "os.write": "writes to a raw file descriptor", "os.dup2": "redirects file descriptors",
    "os.close": "closes file descriptors", "os.open": "opens raw file descriptors",
    "sys.modules": "can reach the grader's modules", "sys._getframe": "walks frames",
    "sys.settrace": "traces the checks", "sys.setprofile": "traces the checks",
    "jax.config": "changes JAX's configuration",
    "jax.monitoring": MODULES["jax.monitoring"], "jax._src": MODULES["jax._src"],
}
NAME_PREFIXES = {"os.exec": "replaces the process", "os.spawn": "starts processes",
                 "os.posix_spawn": "starts processes"}
METHODS = {"write_text": "writes files", "write_bytes": "writes files", "symlink_to": "creates links",
           "unlink": "deletes files", "rmdir": "deletes files"}
DUNDERS = {"__subclasses__", "__globals__", "__code__", "__builtins__", "__dict__", "f_back",
           "f_globals", "f_locals", "gi_frame", "tb_frame"}
CALLS = {"exit": "exits the process", "quit": "exits the process", "eval": "runs code from strings",
         "exec": "runs code from strings", "compile": "compiles code from strings",
         "__import__": "imports modules by computed names", "open": "opens files",
         "breakpoint": "stops for a debugger", "globals": "can rewrite module state by name",
         "vars": "can rewrite module state by name"}
BY_NAME = {"getattr", "setattr", "delattr"}
WORKFLOW_COMMANDS = ("::error", "::warning", "::notice", "::set-output", "::add-mask",
                     "::stop-commands", "::group", "::debug")


# Modules other modules hold as attributes (`os.sys`, `warnings.sys`): reached that way, they are
# themselves, so `os.sys.modules` is judged as `sys.modules`.
REEXPORTED = ("sys", "os", "builtins", "gc", "ctypes", "importlib", "inspect", "subprocess")


def _reexported(dotted: str) -> str:
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] in REEXPORTED:
            return ".".join(parts[i:])
    return dotted


@dataclass(frozen=True)
class Flag:
    path: str  # the exercise file, as in the manifest
    line: int
    code: str  # the offending source line
    reason: str

    def text(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}: {self.code}"


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str, lines: list[str]) -> None:
        self.path, self.lines = path, lines
        self.flags: list[Flag] = []
        self.imported: dict[str, str] = {}  # local name -> what it was imported as (dotted)

    def flag(self, node: ast.AST, reason: str) -> None:
        line = getattr(node, "lineno", 0)
        code = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        self.flags.append(Flag(self.path, line, code[:160], reason))

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted name an expression stands for, through import aliases; None if not imported."""
        if isinstance(node, ast.Name):
            return self.imported.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def check_name(self, node: ast.AST, dotted: str) -> None:
        for banned, why in MODULES.items():
            if dotted == banned or dotted.startswith(banned + "."):
                self.flag(node, f"{why} ({dotted})")
                return
        for name, why in NAMES.items():
            if dotted == name or dotted.startswith(name + "."):
                self.flag(node, f"{why} ({dotted})")
                return
        for prefix, why in NAME_PREFIXES.items():
            if dotted.startswith(prefix):
                self.flag(node, f"{why} ({dotted})")
                return

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.check_name(node, alias.name)
            if alias.asname:
                self.imported[alias.asname] = alias.name
            else:
                root = alias.name.split(".")[0]
                self.imported[root] = root

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            dotted = f"{module}.{alias.name}" if module else alias.name
            self.check_name(node, dotted)
            self.imported[alias.asname or alias.name] = dotted

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = self.resolve(node)
        if dotted and not isinstance(node.ctx, ast.Store):
            self.check_name(node, _reexported(dotted))
        if node.attr in DUNDERS:
            self.flag(node, f"reaches into interpreter internals ({node.attr})")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in DUNDERS:
            self.flag(node, f"reaches into interpreter internals ({node.id})")

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in CALLS and func.id not in self.imported:
            self.flag(node, CALLS[func.id])
        if isinstance(func, ast.Name) and func.id in BY_NAME and node.args:
            target = self.resolve(node.args[0])
            if target is not None:
                self.flag(node, f"reaches {target}'s attributes by name ({func.id})")
        if isinstance(func, ast.Attribute) and func.attr in METHODS and self.resolve(func) is None:
            self.flag(node, METHODS[func.attr])
        self.generic_visit(node)

    def _check_targets(self, targets: list[ast.AST]) -> None:
        for target in targets:
            if isinstance(target, ast.Attribute) and self.resolve(target.value) is not None:
                self.flag(target, f"monkeypatches {ast.unparse(target)}")

    def visit_Assign(self, node: ast.Assign) -> None:
        self._check_targets(node.targets)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._check_targets([node.target])
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        self._check_targets(node.targets)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and any(c in node.value for c in WORKFLOW_COMMANDS):
            self.flag(node, "prints a CI workflow command")


# CPython 3.11's parser keeps its recursion depth in shared state: two threads parsing at once (a
# batch grades submissions in threads) can trip "AST constructor recursion depth mismatch".
_PARSING = threading.Lock()


def scan_source(source: str, path: str) -> list[Flag]:
    """Flags for one file's source; a file that does not parse has none (the checks report it)."""
    try:
        with _PARSING:
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    scanner = _Scanner(path, source.splitlines())
    scanner.visit(tree)
    return sorted(set(scanner.flags), key=lambda f: (f.line, f.reason))


def scan_files(folder: Path, paths: list[str]) -> dict[str, list[Flag]]:
    """manifest path -> flags, for the exercise files copied into a workspace."""
    found = {}
    for rel in paths:
        flags = scan_source((folder / rel).read_text(encoding="utf-8", errors="replace"), rel)
        if flags:
            found[rel] = flags
    return found


# Files that would change how Python or pytest start if they were ever loaded.
PLANTED = {"conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "sitecustomize.py", "usercustomize.py"}


def scan_planted(folder: Path, known_checks: set[str]) -> list[Flag]:
    """Flags for files a submission carries that try to steer the test run.

    The grader never loads them (only manifest-listed exercise files are
    copied), but carrying them is worth a person's look.
    """
    flags = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(folder).as_posix()
        if path.name in PLANTED or path.suffix == ".pth":
            flags.append(Flag(rel, 0, "", f"carries {path.name}, which would change how tests run (ignored)"))
        elif path.name.startswith(("test_", "hidden_test_")) and path.suffix == ".py" and rel not in known_checks:
            flags.append(Flag(rel, 0, "", "adds a test file of its own (ignored)"))
    return flags
