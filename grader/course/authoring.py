"""For course authors: `grader new` writes an exercise, `grader check` proves exercises sound.

- `new ID`: the stub (a lesson, a task), its check file, the reference
  solution, a variants folder with a mimic and a mutant, and the manifest
  entry in teaching order: a small working kata to rewrite into your own, sound
  from the first `grader check`; README.md's count of exercises goes one up.
- `check [ID|TOPIC ...]`: the proof of `grader.course.soundness` on this course
  (`--repo` for another checkout), one line per exercise and, for each
  problem, what to fix; `--mutate` adds mutants derived from each reference
  solution (`grader.course.mutation`) and names those no check rejects.

The commands' options are read in grader.cli.course.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from grader import REPO_ROOT
from grader.core.files import write_atomically
from grader.core.manifest import (ID_PATTERN, MANIFEST_NAME, Exercise, ManifestError, entry_toml, load_course,
                                  parse_course)
from grader.core.selection import UsageProblem, checkout_here, choose


def course_repo(repo: Path | None) -> Path:
    """The course checkout `repo` names, else the one holding the current directory, else the one
    the grader was installed from."""
    repo = Path(repo or checkout_here() or REPO_ROOT).expanduser().resolve()
    if not (repo / "exercises" / "manifest.toml").is_file():
        raise UsageProblem(f"{repo} has no exercises/manifest.toml: run this in (or point --repo at) a "
                           f"checkout of the course")
    return repo


# --- check --------------------------------------------------------------------------------


def check_course(repo: Path, names: list[str], assignment: str | None = None, *, mutate: bool = False,
                 report: str | None = None, survivors: str | None = None, workers: int = 2) -> int:
    """Prove the exercises `names` and `assignment` pick (default: all) sound, one line each and what
    to fix; with `mutate`, against mutants derived from each solution too; the results as JSON into
    `report`, surviving mutants' sources under `survivors`. 0 when every exercise checked is sound
    (and, with mutate, no derived mutant survives); 1 when something is unsound; a UsageProblem when
    the course cannot be checked at all."""
    from grader.course import soundness  # imports the grading engine: only when a check runs

    try:
        course = load_course(repo / "exercises")
    except ManifestError as error:
        raise UsageProblem(str(error)) from None
    exercises = choose(course.exercises, ",".join(names) or None, assignment, course.assignments)
    if survivors and not mutate:
        raise UsageProblem("--survivors needs --mutate")
    if survivors and Path(survivors).exists() and not Path(survivors).is_dir():
        raise UsageProblem(f"--survivors {survivors} is a file: name a folder (it is made if need be)")
    errors = soundness.input_errors(repo, exercises)
    if errors:
        raise UsageProblem("cannot check the course:\n  " + "\n  ".join(errors))
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="katas-check-") as scratch:
        proof = soundness.Proof(repo, exercises, Path(scratch), mutate=mutate, workers=max(1, workers))
        try:
            for entry in proof.edited:
                _say(f"note: exercises/{entry.path} differs from its staged version; the proof checks the staged "
                     f"stub (`git add` it to check your edit)")
            proof.start()
            _say(f"checking {len(exercises)} exercise{'s' * (len(exercises) != 1)}: {len(proof.futures)} gradings, "
                 f"{max(1, workers)} at a time" + (f", {len(proof.derived)} derived mutants" if mutate
                                                        else ""))
            proof.wait(_progress())
            results = [_judge(proof, entry, mutate) for entry in exercises]
        finally:
            proof.close()
    seconds = time.monotonic() - start
    for result in results:
        _print_result(result, mutate)
    unsound = [r for r in results if r["problems"]]
    surviving = [s for r in results for s in r.get("survivors", [])]
    summary = (f"{len(results)} exercise{'s' * (len(results) != 1)}: {len(results) - len(unsound)} sound, "
               f"{len(unsound)} unsound")
    if mutate:
        made = sum(len(r["mutants"]) for r in results)
        equivalent = sum(1 for r in results for m in r["mutants"] if m["status"] == soundness.EQUIVALENT)
        summary += (f"; {made} derived mutants, {len(surviving)} survive every check"
                    + (f" ({equivalent} more declared right answers)" if equivalent else "")
                    + f"; {sum(r['mutate_seconds'] for r in results):.0f} s of checks on them, "
                      f"{sum(r['mutate_seconds'] for r in results) / max(1, len(results)):.1f} s per exercise")
    _say("", f"{summary}; {seconds:.0f} s")
    if report:
        write_atomically(Path(report), json.dumps({"seconds": round(seconds, 1), "exercises": results},
                                                       indent=2) + "\n")
    if survivors:
        _write_survivors(Path(survivors), results)
    return 1 if unsound or surviving else 0


def _write_survivors(folder: Path, results: list[dict]) -> None:
    """Each surviving mutant's source as `folder`/<id>/<mutant>.py, and say where."""
    written = []
    for result in results:
        for survivor in result.get("survivors", []):
            path = folder / result["id"] / f"{_file_name(survivor['name'])}.py"
            write_atomically(path, survivor["source"])
            written.append(path)
    _say(f"wrote {len(written)} surviving mutant{'s' * (len(written) != 1)} to {folder}" if written
         else f"no mutant survives: nothing written to {folder}")


def _file_name(mutant: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_.@-]+", "_", mutant)


def _judge(proof, entry, mutate: bool) -> dict:
    from grader.course import soundness  # imports the grading engine: only when a check runs

    found = soundness.problems(proof, entry)
    kept = {kind: sum(1 for v in proof.variants[kind] if v.exercise == entry) for kind in soundness.KINDS}
    result = {"id": entry.id, "path": entry.path,
              "checks": len(proof.checks("solutions", entry)),
              "hidden": sum(1 for c in proof.checks("solutions", entry) if c.hidden),
              "kept": kept,
              "problems": [{"problem": p.text, "fix": p.fix} for p in found]}
    if mutate:
        outcomes = soundness.mutation_outcomes(proof, entry)
        folder = soundness.variants_folder(proof.repo, entry).relative_to(proof.repo).as_posix()
        result["mutants"] = [{"name": o.mutant.name, "line": o.mutant.line, "status": o.status,
                              "does": o.mutant.description, "killed_by": o.killed_by, "why": o.reason}
                             for o in outcomes]
        result["survivors"] = [{"name": o.mutant.name, "line": o.mutant.line, "does": o.mutant.description,
                                "source": o.mutant.text,
                                "fix": f"add a check that rejects it, or, if it is a right answer here, declare it in "
                                       f"{folder}/{soundness.EQUIVALENT_FILE} under [equivalent]"}
                               for o in outcomes if o.status == soundness.SURVIVED]
        result["stale_equivalents"] = soundness.stale_equivalents(proof, entry)
        result["mutate_seconds"] = round(soundness.mutation_seconds(proof, entry), 2)
    return result


def _print_result(result: dict, mutate: bool) -> None:
    kept = result["kept"]
    line = (f"{result['checks']} checks" + (f" ({result['hidden']} hidden)" if result["hidden"] else "")
            + f"; kept {kept['mutant']} mutants, {kept['mimic']} mimics, {kept['alternate']} alternates")
    if mutate:
        statuses = [m["status"] for m in result["mutants"]]
        line += (f"; derived {len(statuses)}: {statuses.count('killed')} rejected, "
                 f"{statuses.count('did not apply')} did not apply, "
                 + (f"{statuses.count('equivalent')} declared right, " if "equivalent" in statuses else "")
                 + f"{len(result['survivors'])} survive ({result['mutate_seconds']:.1f} s)")
    failing = result["problems"] or (mutate and result["survivors"])
    _say(f"{'FAIL' if failing else 'ok':<5} {result['id']:<12} {line}")
    for problem in result["problems"]:
        _say(f"      - {problem['problem']}", f"        fix: {problem['fix']}")
    for survivor in result.get("survivors", []):
        _say(f"      - survives: {survivor['name']} (solution line {survivor['line']}): {survivor['does']}; it "
             f"passes every check", f"        fix: {survivor['fix']}")
    for name in result.get("stale_equivalents", []):
        _say(f"      - note: {name} is declared a right answer but no longer survives (or is no longer "
             f"derived): remove it from mutants.toml")


def _progress():
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        print(f"\r  graded {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    return show


def _say(*lines: str) -> None:
    print(*lines, sep="\n", flush=True)


# --- new ----------------------------------------------------------------------------------

KINDS = ("fill-in", "fix-it")


def new_exercise(repo: Path, exercise_id: str, *, topic: str | None = None, kind: str = "fill-in",
                 points: int = 1, idea: str | None = None) -> int:
    """Write exercise `exercise_id` into the course at `repo` (plan_exercise says what), and what next."""
    plan = plan_exercise(repo, exercise_id, topic=topic, kind=kind, points=points, idea=idea)
    write_plan(repo, plan)
    entry = plan.entry
    _say(f"wrote {entry.id} ({kind}, {entry.points} point{'s' * (entry.points != 1)}), in teaching order "
         f"after {plan.after or 'the last exercise'}:")
    for rel in plan.files:
        _say(f"  {rel}")
    _say("  exercises/manifest.toml (its entry)")
    if plan.readme is not None:
        _say("  README.md (its count of exercises, one more)")
    if plan.held_by:
        _say(f"  (in assignment {plan.held_by}, which names its topic or id prefix: nothing to add there)")
    elif plan.assignments:
        _say(f"  (in no assignment yet: add its id to one of {', '.join(plan.assignments)} in the manifest, or "
             f"a new [[assignment]] table)")
    _say("",
         f"next: rewrite the lesson, task, code and checks into your idea, keep the mimic and mutant honest, "
         f"`git add` the files, then `grader check {entry.id}` and `grader check {entry.id} --mutate` "
         f"(docs/instructors.md, \"Writing your own kata\")")
    return 0


@dataclass
class Plan:
    """Everything `new` writes: file path -> text, and the manifest's new text."""

    entry: Exercise
    files: dict[str, str]
    manifest: str
    after: str | None  # the exercise it follows in teaching order
    assignments: tuple[str, ...] = ()  # the course's assignments
    held_by: str | None = None  # the assignment that holds the new exercise already (through its topic)
    readme: str | None = None  # README.md with its count of exercises one up (None: it states no count)


_IDEA = re.compile(r"^[a-z][a-z0-9_]*$")
_TOPIC = re.compile(r"^[a-z][a-z0-9_]*$")


def plan_exercise(repo: Path, exercise_id: str, *, topic: str | None = None, kind: str = "fill-in",
                  points: int = 1, idea: str | None = None):
    """What `new` would write, checked against the course: a UsageProblem for a duplicate id or
    path, a misnumbered id, a topic whose ids use another prefix, or a bad name."""
    manifest_path = repo / "exercises" / MANIFEST_NAME
    try:
        course = load_course(repo / "exercises")
    except ManifestError as error:
        raise UsageProblem(str(error)) from None
    exercises = course.exercises
    if not ID_PATTERN.match(exercise_id):
        raise UsageProblem(f"{exercise_id!r} is not an id: ids read like 'attention-1' (a lower-case prefix, a dash, "
                           f"a number)")
    if kind not in KINDS:
        raise UsageProblem(f"--kind is fill-in or fix-it, not {kind!r}")
    if not 1 <= points <= 5:
        raise UsageProblem(f"--points must be 1 to 5, not {points}")
    if any(e.id == exercise_id for e in exercises):
        raise UsageProblem(f"there is already an exercise {exercise_id} (exercises/{MANIFEST_NAME}): pick another id")
    prefix, number = exercise_id.rsplit("-", 1)
    by_prefix = [e for e in exercises if e.id.rsplit("-", 1)[0] == prefix]
    topic = topic or (by_prefix[0].topic if by_prefix else prefix.replace("-", "_"))
    if not _TOPIC.match(topic):
        raise UsageProblem(f"topic {topic!r} should read like 'attention' (lower case, digits and _)")
    in_topic = [e for e in exercises if e.topic == topic]
    if by_prefix and by_prefix[0].topic != topic:
        raise UsageProblem(f"ids starting {prefix}- belong to topic {by_prefix[0].topic}; name this one after its "
                           f"topic {topic} (one id prefix per topic)")
    if in_topic and in_topic[0].id.rsplit("-", 1)[0] != prefix:
        raise UsageProblem(f"topic {topic} numbers its ids {in_topic[0].id.rsplit('-', 1)[0]}-N: call this one "
                           f"{in_topic[0].id.rsplit('-', 1)[0]}-{len(in_topic) + 1}")
    if int(number) != len(by_prefix) + 1:
        raise UsageProblem(f"the next {prefix} exercise is {prefix}-{len(by_prefix) + 1} (ids number each topic "
                           f"1, 2, 3... in teaching order), not {exercise_id}")
    idea = idea or exercise_id.replace("-", "_")
    if idea.endswith(".py"):
        idea = idea[:-3]
    if not _IDEA.match(idea):
        raise UsageProblem(f"--file {idea!r} should read like 'causal_mask' (lower case, digits and _)")
    if in_topic:
        folder = in_topic[0].path.split("/")[0]
    else:
        numbers = [int(e.path[:2]) for e in exercises]
        folder = f"{max(numbers, default=0) + 1:02d}_{topic}"
    path = f"{folder}/{idea}.py"
    if any(e.path == path for e in exercises):
        raise UsageProblem(f"exercises/{path} belongs to another exercise already: pick another --file")
    entry = Exercise(id=exercise_id, path=path, topic=topic, points=points,
                     concept="one line: the JAX idea this exercise teaches (rewrite it)",
                     hints=("A gentle nudge: what to look at first (rewrite this hint).",
                            "A clearer pointer: the JAX idea or function involved (rewrite this hint).",
                            "The explicit fix, in code (rewrite this hint)."),
                     index=len(exercises))
    from grader.course.soundness import VARIANTS  # imports the grading engine: only when writing

    variants = (VARIANTS / path.removesuffix(".py")).as_posix()
    files = {f"exercises/{path}": _stub(entry, kind), f"exercises/{entry.check_path}": _checks(entry, kind),
             f"solutions/{path}": _solution(entry), f"{variants}/mimic_no_jit.py": _MIMIC,
             f"{variants}/mutant_adds_instead.py": _MUTANT}
    taken = [rel for rel in files if (repo / rel).exists()]
    if taken:
        raise UsageProblem(f"{', '.join(taken)} exist{'s' * (len(taken) == 1)} already: `new` writes only new files")
    after = in_topic[-1] if in_topic else (exercises[-1] if exercises else None)
    manifest = _insert_entry(manifest_path.read_text(encoding="utf-8"), entry, after, new_topic=not in_topic,
                             folder=folder)
    try:
        grown = parse_course(manifest.encode("utf-8"), manifest_path)
    except ManifestError as error:  # the manifest was fine and the entry is ours: a bug, but say what
        raise UsageProblem(f"the manifest with {exercise_id} added would not read back: {error}") from None
    held_by = next((a.name for a in grown.assignments if any(e.id == exercise_id for e in a.exercises)), None)
    return Plan(entry, files, manifest, after.id if after else None, tuple(a.name for a in course.assignments),
                held_by, _recounted_readme(repo / "README.md", len(grown.exercises)))


# The README's sentence that counts the exercises (the project's tests hold it to the manifest).
_README_COUNT = re.compile(r"(There are )(\d+)( exercises,\s+\d+ of them predict katas)")


def _recounted_readme(readme: Path, count: int) -> str | None:
    """The README's text with its count of exercises set to `count`; None when it states none."""
    try:
        text = readme.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    counted = _README_COUNT.subn(lambda m: f"{m[1]}{count}{m[3]}", text, count=1)
    return counted[0] if counted[1] else None


def write_plan(repo: Path, plan: Plan) -> None:
    """Write the README's new count, every file, then the manifest; on any failure take back what was
    written: nothing half."""
    written: list[Path] = []
    made: list[Path] = []
    readme = repo / "README.md"
    old_readme = readme.read_text(encoding="utf-8") if plan.readme is not None else None
    try:
        if plan.readme is not None:
            write_atomically(readme, plan.readme)
        for rel, text in plan.files.items():
            path = repo / rel
            for folder in reversed(path.parents):
                if not folder.exists() and folder.is_relative_to(repo):
                    made.append(folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, text)
            written.append(path)
        write_atomically(repo / "exercises" / "manifest.toml", plan.manifest)
    except BaseException as error:
        for path in written:
            path.unlink(missing_ok=True)
        if old_readme is not None:
            write_atomically(readme, old_readme)
        for folder in reversed(made):
            try:
                folder.rmdir()
            except OSError:
                pass
        if isinstance(error, OSError):
            raise UsageProblem(f"could not write {error.filename or 'a file'}: {error.strerror or error}; "
                               f"nothing was written") from None
        raise
    load_course.cache_clear()


def _insert_entry(text: str, entry, after, *, new_topic: bool, folder: str) -> str:
    """The manifest text with `entry`'s table after `after`'s table (comments and layout kept)."""
    lines = text.splitlines(keepends=True)
    headers = [n for n, line in enumerate(lines) if re.match(r"^\s*\[\[\s*(exercise|assignment)\s*\]\]", line)]
    exercise_headers = [n for n in headers if "exercise" in lines[n]]
    block = entry_toml(entry)
    if new_topic:
        number, name = folder.split("_", 1)
        block = f"# --- {number} {name} " + "-" * max(3, 80 - len(number) - len(name) - 7) + "\n\n" + block
    if after is None or not exercise_headers:
        position = len(lines)
    else:
        following = [n for n in headers if n > exercise_headers[after.index]]
        position = following[0] if following else len(lines)
        while position > 0 and position < len(lines) + 1 and following and \
                (lines[position - 1].strip() == "" or lines[position - 1].lstrip().startswith("#")):
            position -= 1  # above the blank lines and the comment that open the next table
    before = "".join(lines[:position])
    rest = "".join(lines[position:])
    if before and not before.endswith("\n"):
        before += "\n"
    return before.rstrip("\n") + "\n\n" + block + ("\n" + rest.lstrip("\n") if rest.strip() else "")


def _stub(entry, kind: str) -> str:
    if kind == "fill-in":
        task = ("Task (fill-in): write `scale(x, factor)`, returning x * factor, so that it\n"
                "compiles once for every factor of the same type (keep its name and arguments).")
        body = ('def scale(x: jax.Array, factor: float) -> jax.Array:\n'
                '    raise NotImplementedError("TODO: return x * factor, jitted, with factor traced")\n')
        imports = "import jax\n"
    else:
        task = ("Task (fix-it): `scale(x, factor)` returns the right values but compiles again\n"
                "for every new factor. Make it compile once (keep its name and arguments).")
        body = ('@partial(jax.jit, static_argnames="factor")\n'
                'def scale(x: jax.Array, factor: float) -> jax.Array:\n'
                '    return x * factor\n')
        imports = "from functools import partial\n\nimport jax\n"
    return f'''"""{entry.id}: the lesson, in a few sentences (rewrite this docstring into yours).

Say the JAX idea first, then why it matters, then the trap. This example:
jit turns a function into one compiled program per input *type*; values
passed as ordinary arguments are traced, so a new value reuses the program,
while a static argument becomes part of the program, so each new value
compiles again.

Docs: https://docs.jax.dev/en/latest/jit-compilation.html

{task}
"""

{imports}

{body}'''


def _checks(entry, kind: str) -> str:
    values = '''

def test_values(exercise):
    checks.assert_close(exercise.scale(jnp.asarray(X), 2.0), X * 2.0, what="scale(x, 2.0)")
''' if kind == "fill-in" else ""
    return f'''"""Checks for {entry.id} ({entry.path.rsplit("/", 1)[1].removesuffix(".py")}): values and the JAX property.

Each check takes the `exercise` fixture (the learner's module), asserts with
`grader.checks` helpers (their messages teach) and must fail on the untouched
stub; tests/variants/{entry.path.removesuffix(".py")}/ keeps the answers the checks must reject.
"""

import jax.numpy as jnp
import numpy as np

from grader import checks

X = np.arange(4, dtype=np.float32)
{values}

def test_compiles_once_for_any_factor(exercise):
    x = jnp.asarray(X)
    with checks.count_compiles() as first:
        checks.assert_close(exercise.scale(x, 1.0), X, what="scale(x, 1.0)")  # the one compile
    with checks.count_compiles() as log:
        for factor in (2.0, 3.0, 0.5):
            checks.assert_close(exercise.scale(x, factor), X * factor, what=f"scale(x, {{factor}})")
    checks.assert_compiles(
        log, what="scale()", calls="3 calls with new factors and the same shapes", expected=0, warm_up=first,
        why="the factor reaches the program as a compile-time constant (a static argument): pass it as an "
            "ordinary traced argument, so a new value is new data, not a new program")
'''


def _solution(entry) -> str:
    return f'''"""Reference solution for {entry.id}: factor is an ordinary (traced) argument."""

import jax


@jax.jit
def scale(x: jax.Array, factor: float) -> jax.Array:
    return x * factor
'''


_MIMIC = '''"""Right values, no jit: nothing is compiled, so nothing shows it compiles once (rewrite this mimic:
an answer with the right values that skips your exercise's JAX idea; the checks must reject it for
that idea, not for its values)."""

import jax


def scale(x: jax.Array, factor: float) -> jax.Array:
    return x * factor
'''

_MUTANT = '''"""Wrong: adds the factor instead of multiplying by it (rewrite this mutant: a plausible wrong
answer to your exercise; every check must reject at least one kept mutant)."""

import jax


@jax.jit
def scale(x: jax.Array, factor: float) -> jax.Array:
    return x + factor
'''
