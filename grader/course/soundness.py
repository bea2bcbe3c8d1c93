"""Prove a course's exercises sound: the engine of `grader check` and of the project's own tests.

An exercise is sound when
- its reference solution passes every check, twice in a row (two runs agree);
- its untouched stub fails every check, for the exercise's reason (a fill-in's
  or a predict kata's TODO, a fix-it's bug), never because the harness could
  not load it;
- every kept mutant (a plausible wrong answer) is rejected, and every check
  rejects at least one of them;
- every kept mimic (the right values without the JAX idea) is rejected, and
  not for its values; at least one is kept (for a predict kata: a prediction
  computed at import, or the right one in a form or vocabulary the task rules
  out), and a predict kata keeps at least one alternate too;
- every kept alternate (an unusual right answer) passes;
- every hidden check rejects a kept hard-coded answer (`mutant_hard_coded*`).

With mutation (`grader.course.mutation`), mutants are also derived from the reference
solution mechanically, and the ones that pass every check are reported: the
checks' blind spots.

Grading is the costly part: each target (the solutions, the stubs, a round of
variants holding at most one per exercise) is one `grader.engine.grading.grade` call,
one check process. All targets start at once on a small pool, one per core,
and each runs once; the verdicts below only read the results.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time
import tomllib
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from grader.core.files import cache_home
from grader.engine.grading import Check, Grade, grade
from grader.core.manifest import Exercise

KINDS = ("mutant", "mimic", "alternate")
VARIANTS = Path("tests") / "variants"  # in a course repository
EQUIVALENT_FILE = "mutants.toml"  # in an exercise's variants folder: derived mutants that are right answers

# A stub (or a variant) must fail because of what it computes, never because the harness could
# not load it.
HARNESS_TROUBLE = ("could not import", "has a syntax error", "is missing", "has no `",
                   "did not report", "no checks ran", "ModuleNotFoundError", "ImportError")
# Codes that say a values-right answer was rejected for its values after all.
VALUE_CODES = ("wrong-values", "wrong-shape", "todo", "error", "missing", "syntax-error", "import-error")


@dataclass(frozen=True)
class Variant:
    """A rewrite of one exercise kept to test its checks, in `tests/variants/<NN_topic>/<name>/`.

    - `mutant_<label>.py`: a plausible wrong answer; the checks must reject it.
    - `mimic_<label>.py`: returns the right values but skips the JAX idea the
      exercise teaches (NumPy on the host, a final device_put, a manual
      delete, zero compiles, the whole batch on every device...); the checks
      must reject it, and not for its values.
    - `alternate_<label>.py`: an unusual but correct answer; it must pass.
    """

    exercise: Exercise
    path: Path

    @property
    def kind(self) -> str:
        return self.path.name.split("_", 1)[0]

    @property
    def label(self) -> str:
        return f"{self.exercise.id}:{self.path.stem}"

    def source(self) -> bytes:
        return self.path.read_bytes()


@dataclass(frozen=True)
class Problem:
    """One way an exercise is unsound: what is wrong, and what to do about it."""

    exercise: str
    text: str
    fix: str


def variants_folder(repo: Path, entry: Exercise) -> Path:
    return repo / VARIANTS / entry.path.removesuffix(".py")


def find_variants(repo: Path, exercises: tuple[Exercise, ...], kind: str) -> list[Variant]:
    found = []
    for entry in exercises:
        found += [Variant(entry, p) for p in sorted(variants_folder(repo, entry).glob(f"{kind}_*.py"))]
    return found


def rounds(items: list) -> list[list]:
    """Group items (each with an `.exercise`) so that a round holds at most one per exercise: one
    check process grades a round."""
    by_exercise: dict[str, list] = {}
    for item in items:
        by_exercise.setdefault(item.exercise.id, []).append(item)
    depth = max((len(v) for v in by_exercise.values()), default=0)
    return [[v[i] for v in by_exercise.values() if i < len(v)] for i in range(depth)]


# --- the stubs, as committed --------------------------------------------------------------


def staged_stub(repo: Path, entry: Exercise, revision: str = "") -> bytes | None:
    """The stub as staged in git (`revision` "" is the index), or None where git does not know it."""
    if not (repo / ".git").exists():
        return None
    found = subprocess.run(["git", "show", f"{revision}:exercises/{entry.path}"], cwd=repo,
                           capture_output=True)
    return found.stdout if found.returncode == 0 else None


def export_stubs(repo: Path, exercises: tuple[Exercise, ...], folder: Path,
                 revision: str = "") -> list[Exercise]:
    """Write each exercise's stub, as staged in git, under `folder` (shaped like exercises/).

    A learner solves exercises in exercises/, and an instructor may too; the
    proof judges the untouched stubs whatever the working copy holds, so
    stubs are read from git's index (`git add` a stub you changed on
    purpose). A stub git does not know yet (a new exercise) is the working
    tree's; outside a git checkout every file is. Returns the exercises whose
    working copy differs from the stub checked.
    """
    differs = []
    for entry in exercises:
        working = repo / "exercises" / entry.path
        staged = staged_stub(repo, entry, revision)
        data = staged if staged is not None else working.read_bytes()
        if staged is not None and working.is_file() and working.read_bytes() != staged:
            differs.append(entry)
        dest = folder / entry.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    return differs


def is_fill_in(stub: bytes) -> bool:
    return b'NotImplementedError("TODO' in stub


# --- grading every target once ------------------------------------------------------------


@dataclass(frozen=True)
class Repeat:
    """The reference solution once more, graded in a round beside the variants: the second run that
    must agree with the first."""

    exercise: Exercise
    path: Path

    def source(self) -> bytes:
        return self.path.read_bytes()


class Proof:
    """Every target a proof needs, graded once each, `workers` at a time, in the background.

    Targets: "solutions" and "stubs" (the whole course each), then "round-<i>":
    one check process per round, holding at most one item per exercise,
    where an item is a kept variant, the reference solution again (`Repeat`)
    or, with `mutate=True`, a mutant derived from the reference solution.
    Packing every kind into the same rounds keeps the processes few: a
    process costs a JAX start, an exercise in it a fraction of that.
    """

    def __init__(self, repo: Path, exercises: tuple[Exercise, ...], scratch: Path, *, mutate: bool = False,
                 workers: int = 2, revision: str = "", cache: Path | None = None) -> None:
        self.repo, self.exercises, self.scratch = Path(repo), tuple(exercises), Path(scratch)
        self.cache = cache or cache_home()  # trusted code shares the user's compilation cache
        self.pool = ThreadPoolExecutor(max_workers=workers)
        self.futures: dict[str, Future] = {}
        self._started = False
        self.seconds: dict[str, float] = {}  # target -> how long it ran
        self.stubs = self.scratch / "stubs"
        self.edited = export_stubs(self.repo, self.exercises, self.stubs, revision)
        self.variants = {kind: find_variants(self.repo, self.exercises, kind) for kind in KINDS}
        self.repeats = {e.id: Repeat(e, self.repo / "solutions" / e.path) for e in self.exercises}
        self.derived: list = []
        if mutate:
            from grader.course.mutation import derive_course  # only with --mutate

            self.derived = derive_course(self.repo, self.exercises)
        items = [v for kind in KINDS for v in self.variants[kind]] + list(self.repeats.values()) + self.derived
        self.rounds = rounds(items)
        self._round_of = {item: i for i, group in enumerate(self.rounds) for item in group}

    def start(self) -> None:
        """Queue every target: the biggest rounds first, so that no big one is left running alone."""
        if self._started:
            return
        self._started = True  # other targets may be queued already (a test's own submissions)
        self.submit("solutions", self._grade, self.repo / "solutions", self.exercises)
        self.submit("stubs", self._grade, self.stubs, self.exercises)
        for i, group in sorted(enumerate(self.rounds), key=lambda r: -len(r[1])):
            self.submit(f"round-{i}", self._grade_round, f"round-{i}", group)

    def _grade(self, folder: Path, exercises: tuple[Exercise, ...]) -> Grade:
        return grade(folder, repo=self.repo, only=exercises, shared_cache=self.cache)

    def _grade_round(self, name: str, group: list) -> Grade:
        target = self.scratch / name
        for item in group:
            dest = target / item.exercise.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(item.source())
        return self._grade(target, tuple(sorted({v.exercise for v in group}, key=lambda e: e.index)))

    def submit(self, name: str, fn, *args) -> None:
        if name not in self.futures:
            self.futures[name] = self.pool.submit(self._timed, name, fn, *args)

    def _timed(self, name: str, fn, *args):
        start = time.monotonic()
        try:
            return fn(*args)
        finally:
            self.seconds[name] = time.monotonic() - start

    def get(self, name: str) -> Grade:
        if name not in self.futures:
            self.start()
        return self.futures[name].result()

    def wait(self, progress=None) -> None:
        """Block until every target is graded; `progress(done, total)` after each."""
        self.start()
        total = len(self.futures)
        for done, future in enumerate(as_completed(list(self.futures.values())), 1):
            future.result()
            if progress:
                progress(done, total)

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)

    # --- results by exercise and by variant ---

    def checks(self, target: str, entry: Exercise) -> list[Check]:
        return next((e.checks for e in self.get(target).exercises if e.exercise.id == entry.id), [])

    def results(self, item) -> list[Check]:
        """The checks' results for one item of the rounds: a variant, a repeat, a derived mutant."""
        return self.checks(f"round-{self._round_of[item]}", item.exercise)


# --- verdicts -----------------------------------------------------------------------------


def _variant_path(repo: Path, entry: Exercise, name: str = "") -> str:
    return (VARIANTS / entry.path.removesuffix(".py") / name).as_posix()


def _trouble(checks: list[Check]) -> Check | None:
    return next((c for c in checks if any(t in c.result.reason for t in HARNESS_TROUBLE)), None)


def _code(check: Check) -> str:
    return check.result.code or "error"


def solution_problems(proof: Proof, entry: Exercise) -> list[Problem]:
    checks = proof.checks("solutions", entry)
    if not checks:
        return [Problem(entry.id, "no checks ran on the reference solution",
                        f"write exercises/{entry.check_path}: test_* functions taking the `exercise` fixture")]
    return [Problem(entry.id, f"the reference solution fails {c.name}: {c.result.reason}",
                    f"fix solutions/{entry.path}, or the check if the solution is right")
            for c in checks if not c.result.passed]


def stub_problems(proof: Proof, entry: Exercise) -> list[Problem]:
    checks = proof.checks("stubs", entry)
    if not checks:
        return [Problem(entry.id, "no checks ran on the stub", f"write exercises/{entry.check_path}")]
    found = [Problem(entry.id, f"{c.name} passes on the untouched stub, so it proves nothing yet",
                     "make it fail on the stub: it should call the exercise's function and judge what the "
                     "task asks for, which the stub does not do yet")
             for c in checks if c.result.passed]
    trouble = _trouble(checks)
    if trouble:
        found.append(Problem(entry.id, f"the stub fails {trouble.name} because it cannot be loaded, not because "
                                       f"it is unfinished: {trouble.result.reason}",
                             f"exercises/{entry.path} must import cleanly and define every name the checks call"))
    if is_fill_in((proof.stubs / entry.path).read_bytes()) or entry.kind == "predict":
        kind = "predict kata's" if entry.kind == "predict" else "fill-in"
        first = ("read the predictions (checks.predicted) before judging anything else, so the learner sees "
                 "the TODO first" if entry.kind == "predict" else
                 "call the exercise's function before judging anything else, so the learner sees the TODO first")
        silent = [c for c in checks if not c.result.passed and "TODO" not in c.result.reason]
        if silent and not trouble:
            found.append(Problem(entry.id, f"on the {kind} stub, {', '.join(c.name for c in silent)} fail(s) "
                                           f"without reaching its TODO ({silent[0].name}: "
                                           f"{silent[0].result.reason[:300]})", first))
    return found


def coverage_problems(proof: Proof, entry: Exercise) -> list[Problem]:
    """Every check rejects at least one kept mutant: a check that cannot fail is caught."""
    mutants = [v for v in proof.variants["mutant"] if v.exercise == entry]
    if not mutants:
        return [Problem(entry.id, "no kept mutant (a plausible wrong answer)",
                        f"add {_variant_path(proof.repo, entry, 'mutant_<what_is_wrong>.py')}")]
    caught = {c.nodeid for m in mutants for c in proof.results(m) if not c.result.passed}
    names = [c.nodeid for c in proof.checks("solutions", entry)]
    return [Problem(entry.id, f"{name.rsplit('::', 1)[-1]} rejects none of the kept mutants, so nothing shows it "
                              f"can fail", f"add a mutant it rejects in {_variant_path(proof.repo, entry)}/, "
                                           f"or drop the check")
            for name in names if name not in caught]


def variant_problems(proof: Proof, variant: Variant) -> list[Problem]:
    results = proof.results(variant)
    where = _variant_path(proof.repo, variant.exercise, variant.path.name)
    entry = variant.exercise.id
    if not results:
        return [Problem(entry, f"no checks ran for {variant.path.name}", f"see that {where} defines the "
                                                                         f"exercise's names")]
    failed = [c for c in results if not c.result.passed]
    trouble = _trouble(results)
    found = []
    if variant.kind == "alternate":
        return [Problem(entry, f"{c.name} rejects the right answer {variant.path.name}: {c.result.reason}",
                        f"the check is too strict: accept it (or, if {where} is wrong after all, rename it "
                        f"mutant_*)") for c in failed]
    if not failed:
        what = ("returns the right values without the JAX idea, and passes every check" if variant.kind == "mimic"
                else "passes every check")
        found.append(Problem(entry, f"{variant.path.name} {what}",
                             f"add a check that rejects it (its docstring says what it gets wrong)"))
    if trouble:
        found.append(Problem(entry, f"{variant.path.name} fails to load, so it tests nothing: "
                                    f"{trouble.result.reason}", f"fix {where}"))
    elif variant.kind == "mimic":
        by_value = [c for c in failed if _code(c) in VALUE_CODES]
        found += [Problem(entry, f"{c.name} rejects {variant.path.name} for its values ({_code(c)}: "
                                 f"{c.result.reason}), but a mimic returns the right values",
                          f"fix the mimic's values, or the check, so that it is rejected for the JAX property")
                  for c in by_value]
    return found


def mimic_presence_problems(proof: Proof, entry: Exercise) -> list[Problem]:
    """At least one kept mimic that the checks reject. A predict kata's mimic is a right prediction computed
    at import or written in a form or vocabulary its task rules out; it keeps an alternate too (the right
    predictions in another allowed form)."""
    mimics = [v for v in proof.variants["mimic"] if v.exercise == entry]
    found = []
    if entry.kind == "predict" and not any(v.exercise == entry for v in proof.variants["alternate"]):
        found.append(Problem(entry.id, "no kept alternate (the right predictions in another allowed form)",
                             f"add {_variant_path(proof.repo, entry, 'alternate_<form>.py')}"))
    if not any(any(not c.result.passed for c in proof.results(m)) for m in mimics):
        what = ("a right prediction computed at import" if entry.kind == "predict" else
                "right values, JAX idea skipped")
        found.append(Problem(entry.id, f"no kept mimic ({what}) that the checks reject",
                             f"add {_variant_path(proof.repo, entry, 'mimic_<what_it_skips>.py')}"))
    return found


def hidden_problems(proof: Proof, entry: Exercise) -> list[Problem]:
    """Each hidden check rejects a kept hard-coded answer (`mutant_hard_coded*.py`): the answer it exists for."""
    hidden = [c.nodeid for c in proof.checks("solutions", entry) if c.hidden]
    if not hidden:
        return []
    fitted = [v for v in proof.variants["mutant"] if v.exercise == entry and v.path.stem.startswith("mutant_hard_coded")]
    if not fitted:
        return [Problem(entry.id, "it has hidden checks but no kept hard-coded answer for them to reject",
                        f"add {_variant_path(proof.repo, entry, 'mutant_hard_coded.py')}: an answer fitted to the "
                        f"visible checks' inputs, which only a hidden check catches")]
    caught = {c.nodeid for v in fitted for c in proof.results(v) if c.hidden and not c.result.passed}
    return [Problem(entry.id, f"hidden check {name.rsplit('::', 1)[-1]} rejects none of the hard-coded answers "
                              f"({', '.join(v.path.name for v in fitted)})",
                    "give it inputs the visible checks do not use, or keep the hard-coded answer it exists for")
            for name in hidden if name not in caught]


def agreement_problems(proof: Proof, entry: Exercise) -> list[Problem]:
    """The reference solution's two runs agree check by check: no check depends on luck or order."""
    first = {c.nodeid: c.result.outcome for c in proof.checks("solutions", entry)}
    second = {c.nodeid: c.result.outcome for c in proof.results(proof.repeats[entry.id])}
    differ = sorted(name for name in first.keys() | second.keys() if first.get(name) != second.get(name))
    return [Problem(entry.id, f"{name.rsplit('::', 1)[-1]} {first.get(name, 'did not run')} in one run of the "
                              f"reference solution and {second.get(name, 'did not run')} in the other",
                    "make the check deterministic: fixed seeds, warm up before counting compiles, tolerances a "
                    "correct answer always meets")
            for name in differ]


def problems(proof: Proof, entry: Exercise) -> list[Problem]:
    """Everything unsound about one exercise (empty: it is sound)."""
    found = solution_problems(proof, entry) + agreement_problems(proof, entry) + stub_problems(proof, entry)
    found += coverage_problems(proof, entry) + mimic_presence_problems(proof, entry) + hidden_problems(proof, entry)
    for kind in KINDS:
        for variant in proof.variants[kind]:
            if variant.exercise == entry:
                found += variant_problems(proof, variant)
    return found


# --- derived mutants ----------------------------------------------------------------------

SURVIVED, KILLED, NOT_APPLICABLE, EQUIVALENT = "survived", "killed", "did not apply", "equivalent"


@dataclass
class MutantOutcome:
    mutant: object  # grader.course.mutation.Mutant
    status: str
    killed_by: list[str] = field(default_factory=list)  # the checks that rejected it
    reason: str = ""  # why it is equivalent (mutants.toml), when it is


def equivalent_mutants(repo: Path, entry: Exercise) -> dict[str, str]:
    """Derived mutants declared right answers in the exercise's `mutants.toml`: name -> why."""
    path = variants_folder(repo, entry) / EQUIVALENT_FILE
    if not path.is_file():
        return {}
    with open(path, "rb") as handle:
        table = tomllib.load(handle).get("equivalent", {})
    return {str(name): str(why) for name, why in table.items()}


def mutation_outcomes(proof: Proof, entry: Exercise) -> list[MutantOutcome]:
    from grader.course.mutation_rewrites import NOT_APPLICABLE_MARK  # only with --mutate

    declared = equivalent_mutants(proof.repo, entry)
    outcomes = []
    for mutant in (m for m in proof.derived if m.exercise == entry):
        results = proof.results(mutant)
        failed = [c for c in results if not c.result.passed]
        if not results:
            outcomes.append(MutantOutcome(mutant, NOT_APPLICABLE, reason="no checks ran"))
        elif failed and all(NOT_APPLICABLE_MARK in c.result.reason for c in failed):
            outcomes.append(MutantOutcome(mutant, NOT_APPLICABLE))
        elif failed:
            outcomes.append(MutantOutcome(mutant, KILLED, [c.name for c in failed]))
        elif mutant.name in declared:
            outcomes.append(MutantOutcome(mutant, EQUIVALENT, reason=declared[mutant.name]))
        else:
            outcomes.append(MutantOutcome(mutant, SURVIVED))
    return outcomes


def mutation_seconds(proof: Proof, entry: Exercise) -> float:
    """The time the checks took on an exercise's derived mutants, all rounds together."""
    return sum(c.result.duration for m in proof.derived if m.exercise == entry
               for c in proof.results(m))


def stale_equivalents(proof: Proof, entry: Exercise) -> list[str]:
    """Names in mutants.toml that no longer name a surviving derived mutant."""
    outcomes = {o.mutant.name: o.status for o in mutation_outcomes(proof, entry)}
    return [name for name in equivalent_mutants(proof.repo, entry) if outcomes.get(name) != EQUIVALENT]


# --- bad input, before any grading --------------------------------------------------------


def input_errors(repo: Path, exercises: tuple[Exercise, ...], mutate: bool = False) -> list[str]:
    """What keeps the proof from starting, each naming a file and line: a missing stub, check or
    solution, a file Python cannot parse, a stub importing what is not installed, a bad mutants.toml."""
    errors = []
    manifest = repo / "exercises" / "manifest.toml"
    for entry in exercises:
        line = _manifest_line(manifest, entry)
        for rel, what in ((f"exercises/{entry.path}", "stub"), (f"exercises/{entry.check_path}", "check file"),
                          (f"solutions/{entry.path}", "reference solution")):
            path = repo / rel
            if not path.is_file():
                errors.append(f"{rel}: missing: {entry.id} (exercises/manifest.toml:{line}) needs its {what}")
                continue
            errors += _parse_errors(path, rel)
        stub = repo / "exercises" / entry.path
        if stub.is_file():
            errors += _missing_imports(stub, f"exercises/{entry.path}")
        hidden = repo / "exercises" / entry.hidden_check_path
        if hidden.is_file():
            errors += _parse_errors(hidden, f"exercises/{entry.hidden_check_path}")
        folder = variants_folder(repo, entry)
        for path in sorted(folder.glob("*.py")):
            errors += _parse_errors(path, path.relative_to(repo).as_posix())
        declared = folder / EQUIVALENT_FILE
        if declared.is_file():
            try:
                with open(declared, "rb") as handle:
                    table = tomllib.load(handle)
                if not isinstance(table.get("equivalent", {}), dict) or set(table) - {"equivalent"}:
                    raise ValueError("it should hold one [equivalent] table: mutant name = why it is right")
            except (tomllib.TOMLDecodeError, ValueError) as error:
                errors.append(f"{declared.relative_to(repo).as_posix()}: {error}")
    return errors


def _manifest_line(manifest: Path, entry: Exercise) -> int:
    text = manifest.read_text(encoding="utf-8").splitlines()
    return next((n for n, line in enumerate(text, 1) if line.strip() == f'id = "{entry.id}"'), 0)


def _parse_errors(path: Path, shown: str) -> list[str]:
    try:
        ast.parse(path.read_bytes(), filename=shown)
    except SyntaxError as error:
        return [f"{shown}:{error.lineno}: syntax error: {error.msg}"]
    except ValueError as error:  # null bytes and the like
        return [f"{shown}: cannot be read as Python: {error}"]
    return []


def _missing_imports(path: Path, shown: str) -> list[str]:
    """Top-level imports the stub makes that this Python cannot find."""
    import importlib.util

    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return []  # reported as a syntax error
    errors = []
    for node in tree.body:
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
        for name in names:
            top = name.split(".")[0]
            if top in sys.stdlib_module_names:
                continue
            try:
                found = importlib.util.find_spec(top) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                errors.append(f"{shown}:{node.lineno}: imports {name}, which is not installed here, so the stub "
                              f"cannot be imported")
    return errors

