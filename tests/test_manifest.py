"""The manifest and the files agree: one entry per exercise, nothing left out."""

from __future__ import annotations

import ast
import re

import pytest

from grader import REPO_ROOT
from support import PRISTINE
from grader.manifest import ManifestError, exercise_for_check_file, load_manifest, suggest
from support import ALL_EXERCISES as EXERCISES, KINDS, VARIANTS

EXERCISES_DIR = REPO_ROOT / "exercises"
SOLUTIONS_DIR = REPO_ROOT / "solutions"
IDS = [e.id for e in EXERCISES]


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_entry_has_stub_checks_and_solution(entry):
    for path in (EXERCISES_DIR / entry.path, EXERCISES_DIR / entry.check_path, SOLUTIONS_DIR / entry.path):
        assert path.is_file(), f"{entry.id}: {path.relative_to(REPO_ROOT)} is missing"


@pytest.mark.parametrize("entry", EXERCISES, ids=IDS)
def test_stub_teaches_before_the_task(entry):
    source = (PRISTINE / "exercises" / entry.path).read_text()  # as committed, whatever a learner did
    doc = ast.get_docstring(ast.parse(source)) or ""
    assert "docs.jax.dev" in doc, f"{entry.id}: the docstring should link the JAX docs page it draws on"
    assert re.search(r"^Task( \((fill-in|fix-it|predict)\))?:", doc, re.M), \
        f"{entry.id}: state the task as 'Task (fill-in): ...'"
    kind = re.search(r"^Task \((fill-in|fix-it|predict)\)", doc, re.M)
    assert kind, f"{entry.id}: say whether it is a fill-in, a fix-it or a predict kata"
    assert entry.kind in ("", kind.group(1)), f"{entry.id}: the manifest says {entry.kind}, the stub {kind.group(1)}"
    assert (entry.kind == "predict") == (kind.group(1) == "predict"), \
        f"{entry.id}: a predict kata says so in the manifest too (kind = \"predict\")"
    has_todo = 'NotImplementedError("TODO' in source
    assert has_todo == (kind.group(1) == "fill-in"), \
        f"{entry.id}: a fill-in raises NotImplementedError(\"TODO ...\"); a fix-it holds buggy code; a predict " \
        f"kata leaves its predictions as `NAME = ...`"
    if kind.group(1) == "predict":
        assert re.search(r"^[A-Z][A-Z0-9_]* = \.\.\.", source, re.M), f"{entry.id}: leave each prediction as NAME = ..."
    assert len(doc.splitlines()) <= 22, f"{entry.id}: keep the lesson short (under ~20 lines)"


def test_topics_are_numbered_folders_in_teaching_order():
    folders = [e.path.split("/")[0] for e in EXERCISES]
    assert folders == sorted(folders), "the manifest lists topics out of folder order"
    for entry in EXERCISES:
        number, topic = entry.path.split("/")[0].split("_", 1)
        assert entry.topic == topic, f"{entry.id}: topic {entry.topic!r} but folder {topic!r}"
    prefixes: dict[str, set[str]] = {}
    for entry in EXERCISES:
        prefixes.setdefault(entry.topic, set()).add(entry.id.rsplit("-", 1)[0])
    mixed = {topic: p for topic, p in prefixes.items() if len(p) > 1}
    assert not mixed, f"one id prefix per topic: {mixed}"


def test_ids_number_each_topic_from_one():
    by_prefix: dict[str, list[int]] = {}
    for entry in EXERCISES:
        prefix, n = entry.id.rsplit("-", 1)
        by_prefix.setdefault(prefix, []).append(int(n))
    for prefix, numbers in by_prefix.items():
        assert numbers == list(range(1, len(numbers) + 1)), f"{prefix}-N ids should run 1, 2, 3...: {numbers}"


def test_no_exercise_file_outside_the_manifest():
    listed = {e.path for e in EXERCISES}
    checks = {e.check_path for e in EXERCISES}
    for folder in (EXERCISES_DIR, SOLUTIONS_DIR):
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).as_posix()
            if folder == EXERCISES_DIR and (rel in checks or exercise_for_check_file(EXERCISES, rel)):
                continue
            assert rel in listed, f"{path.relative_to(REPO_ROOT)} is not in the manifest"


def test_every_variant_belongs_to_an_exercise():
    known = {e.path.removesuffix(".py") for e in EXERCISES}
    for path in VARIANTS.rglob("*.py"):
        rel = path.parent.relative_to(VARIANTS).as_posix()
        assert rel in known, f"{path.relative_to(REPO_ROOT)}: no exercise {rel}.py"
        assert path.name.startswith(tuple(f"{kind}_" for kind in KINDS)), \
            f"{path.name}: name it {', '.join(f'{kind}_*' for kind in KINDS)}"
        assert ast.get_docstring(ast.parse(path.read_text())), f"{path.name}: say in a docstring what it gets wrong (or right)"


def test_points_and_hints_are_usable():
    for entry in EXERCISES:
        assert 1 <= entry.points <= 5, entry.id
        assert all(len(h) > 15 for h in entry.hints), f"{entry.id}: hints should say something"
        assert len(entry.concept) <= 100, f"{entry.id}: keep the concept to one line"


def test_bad_manifest_is_rejected_with_the_entry_named(tmp_path):
    (tmp_path / "manifest.toml").write_text('[[exercise]]\nid = "bad"\npath = "x.py"\n')
    with pytest.raises(ManifestError, match="bad"):
        load_manifest(tmp_path)
    entry = ('[[exercise]]\nid = "odd-1"\npath = "01_odd/odd.py"\ntopic = "odd"\npoints = 1\nconcept = "c"\n'
             'hints = ["a first gentle hint", "a second, stronger hint"]\nkind = "guess"\n')
    (tmp_path / "manifest.toml").write_text(entry)
    with pytest.raises(ManifestError, match="should be one of fill-in, fix-it, predict"):
        load_manifest(tmp_path)


def test_unknown_id_suggests_the_closest():
    assert suggest(EXERCISES, "purty-2") == "no exercise 'purty-2'; did you mean 'purity-2'?"
    assert suggest(EXERCISES, "zzz") == "no exercise 'zzz'"


def test_the_readme_counts_the_exercises_there_are():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    predict = sum(e.kind == "predict" for e in EXERCISES)
    assert f"There are {len(EXERCISES)} exercises, {predict} of them predict katas" in " ".join(readme.split()), \
        "README.md: keep the count of exercises (and of predict katas) right"
