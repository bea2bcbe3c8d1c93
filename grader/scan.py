"""A static look at submission files for code that reaches into the grader.

Exercises never need to exit the process, import pytest or the grader, walk
frames, patch JAX or NumPy, write files, open sockets or start processes.
Code that does is still graded as usual, but the submission is marked
**needs review** with the offending lines, so a person decides.
"""

from __future__ import annotations

import ast
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
# Attributes flagged wherever they appear (module.attr), with the reason.
ATTRIBUTES = {
    ("os", "_exit"): "exits the process", ("sys", "exit"): "exits the process",
    ("os", "system"): "runs a shell command", ("os", "popen"): "runs a shell command",
    ("os", "kill"): "sends signals", ("os", "fork"): "starts processes",
    ("os", "remove"): "deletes files", ("os", "unlink"): "deletes files",
    ("os", "write"): "writes to a raw file descriptor", ("os", "dup2"): "redirects file descriptors",
    ("os", "close"): "closes file descriptors", ("os", "open"): "opens raw file descriptors",
    ("sys", "modules"): "can reach the grader's modules", ("sys", "_getframe"): "walks frames",
    ("sys", "settrace"): "traces the checks", ("sys", "setprofile"): "traces the checks",
    ("config", "update"): "changes JAX's configuration",
}
ATTRIBUTE_PREFIXES = {"exec": "replaces the process", "spawn": "starts processes"}  # os.execv, os.spawnl...
DUNDERS = {"__subclasses__", "__globals__", "__code__", "__builtins__", "f_back", "f_globals",
           "f_locals", "gi_frame", "tb_frame"}
CALLS = {"exit": "exits the process", "quit": "exits the process", "eval": "runs code from strings",
         "exec": "runs code from strings", "compile": "compiles code from strings",
         "__import__": "imports modules by computed names", "open": "opens files",
         "breakpoint": "stops for a debugger", "globals": "can rewrite module state by name"}
WORKFLOW_COMMANDS = ("::error", "::warning", "::notice", "::set-output", "::add-mask",
                     "::stop-commands", "::group", "::debug")


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
        self.modules: set[str] = set()  # local names bound to imported modules

    def flag(self, node: ast.AST, reason: str) -> None:
        line = getattr(node, "lineno", 0)
        code = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        self.flags.append(Flag(self.path, line, code[:160], reason))

    def _check_module(self, node: ast.AST, name: str) -> None:
        for banned, why in MODULES.items():
            if name == banned or name.startswith(banned + "."):
                self.flag(node, f"{why} (import {name})")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_module(node, alias.name)
            self.modules.add(alias.asname or alias.name.split(".")[0])
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        self._check_module(node, module)
        for alias in node.names:
            self._check_module(node, f"{module}.{alias.name}")
            self.modules.add(alias.asname or alias.name)
            if (module, alias.name) in ATTRIBUTES:
                self.flag(node, ATTRIBUTES[(module, alias.name)])
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        base = node.value.id if isinstance(node.value, ast.Name) else \
            node.value.attr if isinstance(node.value, ast.Attribute) else None
        if (base, node.attr) in ATTRIBUTES:
            self.flag(node, ATTRIBUTES[(base, node.attr)])
        elif base == "os" and any(node.attr.startswith(p) for p in ATTRIBUTE_PREFIXES):
            self.flag(node, next(w for p, w in ATTRIBUTE_PREFIXES.items() if node.attr.startswith(p)))
        elif node.attr in DUNDERS:
            self.flag(node, f"reaches into interpreter internals ({node.attr})")
        elif node.attr == "monitoring" and base == "jax":
            self.flag(node, MODULES["jax.monitoring"])
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in DUNDERS:
            self.flag(node, f"reaches into interpreter internals ({node.id})")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in CALLS:
            self.flag(node, CALLS[func.id])
        if isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
            target = node.args[0]
            if isinstance(target, (ast.Name, ast.Attribute)) and _root(target) in self.modules:
                self.flag(node, f"patches a module with {func.id}")
        self.generic_visit(node)

    def _check_targets(self, targets: list[ast.AST]) -> None:
        for target in targets:
            if isinstance(target, ast.Attribute) and _root(target) in self.modules:
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
        self.generic_visit(node)


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def scan_source(source: str, path: str) -> list[Flag]:
    """Flags for one file's source; a file that does not parse has none (the checks report it)."""
    try:
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
