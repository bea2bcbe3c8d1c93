"""The ordered list of exercises, read from `exercises/manifest.toml`.

The manifest is the single source of truth for order, ids, paths, points and
hints; everything else (test ordering, grading, progress) derives from it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MANIFEST_NAME = "manifest.toml"
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*-[0-9]+$")  # purity-1
_REQUIRED = ("id", "path", "topic", "points", "concept", "hints")
# What the learner does: fill in code, fix buggy code, or predict what JAX will do before running it.
# An entry may name its kind (a predict kata must: its checks read predictions, not code to run);
# the stub's `Task (<kind>):` line says the same.
KINDS = ("fill-in", "fix-it", "predict")
_OPTIONAL = ("kind",)


class ManifestError(ValueError):
    """The manifest is malformed: the message names the entry and the field."""


@dataclass(frozen=True)
class Exercise:
    id: str
    path: str  # relative to the exercises folder, e.g. "01_purity/global_state.py"
    topic: str
    points: int
    concept: str
    hints: tuple[str, ...]
    index: int  # position in the manifest, 0-based
    kind: str = ""  # one of KINDS when the manifest says; "" leaves it to the stub's Task line

    @property
    def check_path(self) -> str:
        """The visible check file, next to the stub: `NN_topic/test_<name>.py`."""
        folder, name = self.path.rsplit("/", 1)
        return f"{folder}/test_{name}"

    @property
    def hidden_check_path(self) -> str:
        """Instructor-only checks, omitted from the student release."""
        folder, name = self.path.rsplit("/", 1)
        return f"{folder}/hidden_test_{name}"


class _Places:
    """Where each table and key of a manifest sits, so that an error can name its line."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.lines = path, text.splitlines()

    def where(self, line: int | None) -> str:
        return f"{_shown(self.path)}:{line}" if line else _shown(self.path)

    def table(self, kind: str, index: int) -> int | None:
        """The line (1-based) of the `index`-th `[[kind]]` header."""
        headers = [n for n, line in enumerate(self.lines, 1) if re.match(rf"^\s*\[\[\s*{kind}\s*\]\]", line)]
        return headers[index] if index < len(headers) else None

    def inside(self, kind: str, index: int, pattern: str) -> int | None:
        """The first line of the `index`-th `[[kind]]` table matching `pattern`, else its header."""
        start = self.table(kind, index)
        if start is None:
            return None
        for n in range(start + 1, len(self.lines) + 1):
            if re.match(r"^\s*\[", self.lines[n - 1]):
                break
            if re.search(pattern, self.lines[n - 1]):
                return n
        return start


def _shown(path: Path) -> str:
    """A path as the user knows it: relative to where they stand when it lies below."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _entry(raw: dict, index: int, places: _Places) -> Exercise:
    where = f"manifest entry #{index + 1} ({raw.get('id', 'no id')})"

    def problem(text: str, key: str | None = None) -> ManifestError:
        line = places.inside("exercise", index, rf"^\s*{key}\s*=") if key else places.table("exercise", index)
        return ManifestError(f"{places.where(line)}: {where} {text}")

    missing = [key for key in _REQUIRED if key not in raw]
    if missing:
        raise problem(f"lacks {', '.join(missing)}")
    unknown = sorted(set(raw) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise problem(f"has unknown field(s) {', '.join(unknown)}: an entry holds {', '.join(_REQUIRED)} "
                      f"(and may say its {', '.join(_OPTIONAL)})", unknown[0])
    if not (isinstance(raw["id"], str) and ID_PATTERN.match(raw["id"])):
        raise problem("has an id that should read like 'purity-1'", "id")
    if not (isinstance(raw["points"], int) and not isinstance(raw["points"], bool) and raw["points"] > 0):
        raise problem("needs points as a positive integer", "points")
    if not (isinstance(raw["hints"], list) and all(isinstance(h, str) for h in raw["hints"])):
        raise problem("needs hints as a list of strings", "hints")
    hints = tuple(raw["hints"])
    if not 2 <= len(hints) <= 3:
        raise problem("should give 2 or 3 hints, gentle to explicit", "hints")
    if not (isinstance(raw["path"], str) and re.match(r"^\d\d_[a-z0-9_]+/[a-z0-9_]+\.py$", raw["path"])):
        raise problem("has a path that should read like '01_purity/global_state.py'", "path")
    for key in ("topic", "concept"):
        if not (isinstance(raw[key], str) and raw[key]):
            raise problem(f"needs {key} as a non-empty string", key)
    if raw.get("kind", "") not in ("", *KINDS):
        raise problem(f"has kind {raw.get('kind')!r}; it should be one of {', '.join(KINDS)}", "kind")
    return Exercise(
        id=raw["id"],
        path=raw["path"],
        topic=raw["topic"],
        points=raw["points"],
        concept=raw["concept"],
        hints=hints,
        index=index,
        kind=raw.get("kind", ""),
    )


@dataclass(frozen=True)
class Assignment:
    """A named group of exercises handed out (and graded) together: a week's work, say."""

    name: str
    exercises: tuple[Exercise, ...]

    @property
    def points(self) -> int:
        return sum(e.points for e in self.exercises)


_ASSIGNMENT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _assignments(raw: list, exercises: tuple[Exercise, ...], places: _Places) -> tuple[Assignment, ...]:
    """The `[[assignment]]` tables: each a name and the exercises it holds (ids, topics, folders or
    id prefixes), no exercise in two of them."""
    found: list[Assignment] = []
    owner: dict[str, tuple[str, int | None]] = {}  # exercise id -> (assignment, line)
    if not isinstance(raw, list):
        raise ManifestError(f"{places.where(None)}: `assignment` should be a list of [[assignment]] tables")
    for index, table in enumerate(raw):
        header = places.table("assignment", index)
        name = table.get("name") if isinstance(table, dict) else None
        where = f"assignment #{index + 1}" + (f" ({name})" if isinstance(name, str) else "")
        if not isinstance(table, dict) or set(table) != {"name", "exercises"}:
            keys = sorted(table) if isinstance(table, dict) else []
            raise ManifestError(f"{places.where(header)}: {where} should hold exactly `name` and `exercises` "
                                f"(it has {', '.join(keys) or 'nothing'})")
        if not (isinstance(name, str) and _ASSIGNMENT_NAME.match(name)):
            line = places.inside("assignment", index, r"^\s*name\s*=")
            raise ManifestError(f"{places.where(line)}: {where}: a name reads like 'week-1' (lower case, "
                                f"digits, - and _)")
        if any(a.name == name for a in found):
            raise ManifestError(f"{places.where(header)}: two assignments are named {name!r}")
        wanted = table["exercises"]
        if not (isinstance(wanted, list) and wanted and all(isinstance(w, str) for w in wanted)):
            line = places.inside("assignment", index, r"^\s*exercises\s*=")
            raise ManifestError(f"{places.where(line)}: {where}: `exercises` should list ids, topics or id "
                                f"prefixes, as strings")
        chosen: list[Exercise] = []
        for selector in wanted:
            line = places.inside("assignment", index, re.escape(json_quoted(selector)))
            try:
                hits = select(exercises, selector)
            except ManifestError as error:
                raise ManifestError(f"{places.where(line)}: assignment {name!r}: {error}") from None
            for entry in hits:
                if entry.id in owner and owner[entry.id][0] != name:
                    other, other_line = owner[entry.id]
                    raise ManifestError(f"{places.where(line)}: {entry.id} is in assignment {other!r}"
                                        f"{f' (line {other_line})' if other_line else ''} and again in {name!r}: "
                                        f"an exercise belongs to one assignment")
                owner[entry.id] = (name, line)
                if entry not in chosen:
                    chosen.append(entry)
        found.append(Assignment(name, tuple(sorted(chosen, key=lambda e: e.index))))
    return tuple(found)


def json_quoted(text: str) -> str:
    """A string as TOML writes it between double quotes (JSON's escapes are TOML's)."""
    import json

    return json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class Course:
    """A manifest read whole: the exercises in teaching order, and the assignments grouping them."""

    exercises: tuple[Exercise, ...]
    assignments: tuple[Assignment, ...]

    def assignment(self, name: str) -> Assignment:
        """The assignment called `name`, or a ManifestError naming the ones there are."""
        for assignment in self.assignments:
            if assignment.name == name:
                return assignment
        import difflib

        names = [a.name for a in self.assignments]
        if not names:
            raise ManifestError(f"no assignment {name!r}: the manifest defines none (add [[assignment]] tables "
                                f"to exercises/manifest.toml, see docs/instructors.md)")
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f" (there are: {', '.join(names)})"
        raise ManifestError(f"no assignment {name!r}{hint}")


@cache
def load_course(exercises_dir: Path) -> Course:
    """Read and validate the manifest in `exercises_dir`: exercises and assignments.

    Every problem is a ManifestError that names the file and line.
    """
    path = Path(exercises_dir) / MANIFEST_NAME
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ManifestError(f"{_shown(path)}: no such file") from None
    return parse_course(data, path)


def parse_course(data: bytes, path: Path = Path(MANIFEST_NAME)) -> Course:
    """A manifest's exercises and assignments from its bytes (`path` only names it in errors)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ManifestError(f"{_shown(path)}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    places = _Places(path, text)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"at line (\d+)", str(error))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
        raise ManifestError(f"{places.where(int(line.group(1)) if line else None)}: not valid TOML: "
                            f"{message}") from None
    unknown = sorted(set(raw) - {"exercise", "assignment"})
    if unknown:
        line = next((n for n, text_line in enumerate(places.lines, 1)
                     if re.match(rf"^\s*\[*\s*{re.escape(unknown[0])}\b", text_line)), None)
        raise ManifestError(f"{places.where(line)}: unknown table or key {unknown[0]!r}: a manifest holds "
                            f"[[exercise]] and [[assignment]] tables")
    entries = raw.get("exercise", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ManifestError(f"{places.where(None)}: `exercise` should be a list of [[exercise]] tables")
    exercises = tuple(_entry(entry, i, places) for i, entry in enumerate(entries))
    for kind in ("id", "path"):
        seen: dict[str, int] = {}
        for i, entry in enumerate(exercises):
            value = getattr(entry, kind)
            if value in seen:
                line = places.inside("exercise", i, rf"^\s*{kind}\s*=")
                raise ManifestError(f"{places.where(line)}: duplicate {kind} in manifest: {value} "
                                    f"(first at line {places.table('exercise', seen[value])})")
            seen[value] = i
    return Course(exercises, _assignments(raw.get("assignment", []), exercises, places))


def load_manifest(exercises_dir: Path) -> tuple[Exercise, ...]:
    """Read and validate the manifest in `exercises_dir`, in teaching order."""
    return load_course(Path(exercises_dir)).exercises


def exercise_for_check_file(exercises: tuple[Exercise, ...], relpath: str) -> Exercise | None:
    """Map `NN_topic/test_x.py` or `NN_topic/hidden_test_x.py` to exercise `NN_topic/x.py`."""
    folder, _, name = relpath.replace("\\", "/").rpartition("/")
    for prefix in ("hidden_test_", "test_"):
        if name.startswith(prefix):
            stub = f"{folder}/{name[len(prefix):]}"
            return next((e for e in exercises if e.path == stub), None)
    return None


def select(exercises: tuple[Exercise, ...], wanted: str) -> tuple[Exercise, ...]:
    """Exercises matching a comma-separated list of ids, topics, topic folders or id prefixes.

    `select(all, "purity-1,at_updates")` -> purity-1 and every `02_at_updates` exercise;
    `select(all, "at")` -> at-1, at-2, ... (the prefix of their ids).
    Raises ManifestError (with a suggestion) for a name that matches nothing.
    """
    chosen: list[Exercise] = []
    for name in filter(None, (part.strip() for part in wanted.split(","))):
        hits = [e for e in exercises
                if name in (e.id, e.topic, e.path.split("/")[0], e.id.rsplit("-", 1)[0])]
        if not hits:
            raise ManifestError(suggest(exercises, name))
        chosen += [e for e in hits if e not in chosen]
    return tuple(sorted(chosen, key=lambda e: e.index))


def suggest(exercises: tuple[Exercise, ...], wanted: str) -> str:
    """'no exercise 'x'; did you mean 'y'?' for an unknown id or topic."""
    import difflib

    names = [e.id for e in exercises] + list(dict.fromkeys(e.topic for e in exercises))
    close = difflib.get_close_matches(wanted, names, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"no exercise '{wanted}'{hint}"


def entry_toml(entry: Exercise) -> str:
    """One `[[exercise]]` table, as the manifest writes it."""
    lines = ["[[exercise]]", f"id = {json_quoted(entry.id)}", f"path = {json_quoted(entry.path)}",
             f"topic = {json_quoted(entry.topic)}", *([f"kind = {json_quoted(entry.kind)}"] if entry.kind else []),
             f"points = {entry.points}",
             f"concept = {json_quoted(entry.concept)}", "hints = ["]
    lines += [f"    {json_quoted(hint)}," for hint in entry.hints]
    return "\n".join(lines + ["]"]) + "\n"


def assignment_toml(assignment: Assignment) -> str:
    """One `[[assignment]]` table, its exercises by id."""
    ids = ", ".join(json_quoted(e.id) for e in assignment.exercises)
    return f"[[assignment]]\nname = {json_quoted(assignment.name)}\nexercises = [{ids}]\n"


def course_toml(exercises: tuple[Exercise, ...], assignments: tuple[Assignment, ...] = (),
                header: str = "") -> str:
    """A whole manifest: `header` (comment lines), the exercises, then the assignments."""
    tables = [entry_toml(e) for e in exercises] + [assignment_toml(a) for a in assignments]
    return (header + "\n" if header else "") + "\n".join(tables)
