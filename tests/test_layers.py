"""The grader package's layers: each imports only from its own layer and those below it, and no
module imports itself back through others.

Bottom to top: `core` (plain Python shared by everything: files, limits, the manifest, progress,
failure codes), `runtime` (JAX set-up, loading an exercise, explaining JAX's errors, helper
processes), `checks` (the assertion library the check files use), `engine` (grading: sandbox,
workspace, runner, subject process and examiner, warm cache), `plugin` (the pytest plugin),
`course` and `learner` (the instructor's and the learner's tools, side by side), `cli` (the
`grader` command). Every import counts, including one inside a function (a late import is for
start-up speed, never a way round a circle) and one under `if TYPE_CHECKING:` (an annotation that
needs a module above is a dependency too: a Protocol the lower module defines for itself says
what it needs instead).

A module's public face is its names without a leading underscore: no module imports another
grader module's underscored name (its own helpers), by `from ... import _name` or `module._name`.
"""

from __future__ import annotations

import ast
from pathlib import Path

from grader import REPO_ROOT

PACKAGE = REPO_ROOT / "grader"

# layer -> the layers it may import from (itself included)
BELOW = {
    "core": {"core"},
    "runtime": {"core", "runtime"},
    "checks": {"core", "runtime", "checks"},
    "engine": {"core", "runtime", "checks", "engine"},
    "plugin": {"core", "runtime", "checks", "engine", "plugin"},
    "course": {"core", "runtime", "checks", "engine", "plugin", "course"},
    "learner": {"core", "runtime", "checks", "engine", "plugin", "learner"},
    "cli": {"core", "runtime", "checks", "engine", "plugin", "course", "learner", "cli"},
}
MAX_LINES = 550  # "about 500": a module past this is doing more than one thing


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(REPO_ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _layer(module: str) -> str:
    """`grader` itself (the version and the repository root) counts as core."""
    return "core" if module == "grader" else module.split(".")[1]


def _from_base(node: ast.ImportFrom, module: str, path: Path) -> str:
    """The absolute module a `from ... import` names (relative imports resolved)."""
    base = node.module or ""
    if not node.level:
        return base
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    parts = package.split(".")
    return ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))


def _imports(module: str, path: Path) -> set[str]:
    """The package's modules `module` imports, at any depth in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, module, path)
            # `from pkg import name` imports the submodule pkg.name when there is one
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}


def test_every_module_sits_in_a_layer():
    strays = [m for m in MODULES if m != "grader" and _layer(m) not in BELOW]
    assert not strays, f"modules outside every layer package (put each in one of {sorted(BELOW)}): {strays}"


def test_imports_go_down_the_layers():
    upward = [f"{module} ({_layer(module)}) imports {target} ({_layer(target)})"
              for module, targets in GRAPH.items() if _layer(module) in BELOW
              for target in sorted(targets) if _layer(target) not in BELOW[_layer(module)]]
    assert not upward, "imports that go up a layer or across to a peer:\n" + "\n".join(upward)


def test_no_import_circles():
    circles = _circles(GRAPH)
    assert not circles, "import circles (each a set of modules that import one another):\n" + \
        "\n".join(" -> ".join(sorted(c)) for c in circles)


# Modules that still reach into another module's helpers by their underscored names (none: each has a
# public face).
PRIVATE_IMPORTS_LEFT: set[str] = set()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_uses(module: str, path: Path) -> list[str]:
    """The underscored names `module` takes from other grader modules: imported by name, or read as
    an attribute of a grader module it imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, modules_bound = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _from_base(node, module, path)
            if base == module or not (base == "grader" or base.startswith("grader.")):
                continue
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    modules_bound.add(alias.asname or alias.name)
                elif _private(alias.name):
                    found.append(f"line {node.lineno}: {base}.{alias.name}")
        elif isinstance(node, ast.Import):
            modules_bound |= {alias.asname for alias in node.names if alias.asname and alias.name in MODULES}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in modules_bound and _private(node.attr):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


PRIVATE_USES = {module: uses for module, path in MODULES.items() if (uses := _private_uses(module, path))}


def test_modules_use_each_others_public_names_only():
    offenders = {m: uses for m, uses in PRIVATE_USES.items() if m not in PRIVATE_IMPORTS_LEFT}
    assert not offenders, "modules using another module's underscored names (make the name public where " \
        "it is shared, or keep it where it is used):\n" + "\n".join(f"{m}: {u}" for m, u in offenders.items())


def test_the_private_name_exceptions_are_still_needed():
    """PRIVATE_IMPORTS_LEFT only shrinks: a module given its public face leaves the list."""
    stale = sorted(PRIVATE_IMPORTS_LEFT - set(PRIVATE_USES))
    assert not stale, f"no longer use another module's underscored names (take them off PRIVATE_IMPORTS_LEFT): {stale}"


def test_the_private_name_finder_finds_them(tmp_path):
    """The rule above can fail: both ways of reaching an underscored name are caught, public ones are not."""
    source = tmp_path / "probe.py"
    source.write_text("from grader.engine.warm import _hidden, CACHE_SUFFIX\n"
                      "from grader.checks import compiles\n"
                      "compiles._secret(compiles.is_eager)\n")
    assert _private_uses("grader.engine.probe", source) == ["line 1: grader.engine.warm._hidden",
                                                            "line 3: compiles._secret"]


def test_no_module_is_too_long():
    long = {m: n for m, p in MODULES.items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split each by what it does): {long}"


def test_the_check_authors_import_path_works():
    from grader import checks

    assert callable(checks.assert_close) and issubclass(checks.KataFailure, AssertionError)


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_circles():
    """The test above can fail: a made-up graph with a circle is caught, one without is not."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
