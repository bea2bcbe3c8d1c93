"""`grader new` and `grader check`, as an instructor runs them on a course of their own."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import REPO_ROOT
from grader.core.manifest import load_course, parse_course
from grader.course.mutation import OPERATORS, derive
from support import ALL_EXERCISES


def _grader(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=900)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def fork(tmp_path) -> Path:
    """A course repository shaped like this one: its manifest, no exercise files."""
    repo = tmp_path / "fork"
    (repo / "exercises").mkdir(parents=True)
    shutil.copyfile(REPO_ROOT / "exercises" / "manifest.toml", repo / "exercises" / "manifest.toml")
    return repo


# --- new --------------------------------------------------------------------------------------


def test_new_writes_every_file_and_the_entry_in_teaching_order(fork):
    done = _grader("new", "at-6", "--kind", "fix-it", "--points", "2", "--file", "scatter_rules", "--repo", str(fork))
    assert done.returncode == 0, done.stderr
    for rel in ("exercises/02_at_updates/scatter_rules.py", "exercises/02_at_updates/test_scatter_rules.py",
                "solutions/02_at_updates/scatter_rules.py",
                "tests/variants/02_at_updates/scatter_rules/mimic_no_jit.py",
                "tests/variants/02_at_updates/scatter_rules/mutant_adds_instead.py"):
        assert (fork / rel).is_file(), rel
    course = parse_course((fork / "exercises" / "manifest.toml").read_bytes())
    ids = [e.id for e in course.exercises]
    assert ids.index("at-6") == ids.index("at-5") + 1, "the entry goes after the last exercise of its topic"
    entry = course.exercises[ids.index("at-6")]
    assert (entry.path, entry.topic, entry.points) == ("02_at_updates/scatter_rules.py", "at_updates", 2)
    assert [a.name for a in course.assignments] == [a.name for a in load_course(REPO_ROOT / "exercises").assignments]
    stub = (fork / "exercises/02_at_updates/scatter_rules.py").read_text()
    assert "Task (fix-it):" in stub and "docs.jax.dev" in stub and "NotImplementedError" not in stub
    (holder,) = [a.name for a in course.assignments if "at-6" in [e.id for e in a.exercises]]
    assert f"(in assignment {holder}, which names its topic or id prefix: nothing to add there)" in done.stdout
    assert "in no assignment yet" not in done.stdout


def test_new_topic_gets_the_next_folder_and_goes_last(fork):
    done = _grader("new", "attention-1", "--file", "causal_mask", "--repo", str(fork))
    assert done.returncode == 0, done.stderr
    course = parse_course((fork / "exercises" / "manifest.toml").read_bytes())
    assert course.exercises[-1].id == "attention-1"
    assert course.exercises[-1].path == "20_attention/causal_mask.py"
    assert 'NotImplementedError("TODO' in (fork / "exercises/20_attention/causal_mask.py").read_text()
    assert not [a for a in course.assignments if "attention-1" in [e.id for e in a.exercises]]
    assert "(in no assignment yet: add its id to one of" in done.stdout, done.stdout
    with open(fork / "exercises" / "manifest.toml", "a") as manifest:  # the advice, followed
        manifest.write('\n[[assignment]]\nname = "attention"\nexercises = ["attention-1"]\n')
    course = parse_course((fork / "exercises" / "manifest.toml").read_bytes())
    assert [e.id for e in course.assignment("attention").exercises] == ["attention-1"]


def test_new_counts_itself_in_the_readme(fork):
    shutil.copyfile(REPO_ROOT / "README.md", fork / "README.md")
    before = (fork / "README.md").read_text()
    done = _grader("new", "attention-1", "--repo", str(fork))
    assert done.returncode == 0, done.stderr
    assert "README.md (its count of exercises, one more)" in done.stdout
    count = f"There are {len(ALL_EXERCISES)} exercises,"
    assert count in " ".join(before.split()), "the README counts the built-in exercises"
    after = (fork / "README.md").read_text()
    assert count.replace(str(len(ALL_EXERCISES)), str(len(ALL_EXERCISES) + 1)) in " ".join(after.split())
    assert after.replace(str(len(ALL_EXERCISES) + 1), str(len(ALL_EXERCISES)), 1) == before, "only the count changes"


@pytest.mark.parametrize("args, says", [
    (["at-5"], "there is already an exercise at-5"),
    (["at-6", "--file", "immutable_updates"], "belongs to another exercise already"),
    (["at-7"], "the next at exercise is at-6"),
    (["attention-1", "--topic", "purity"], "topic purity numbers its ids purity-N"),
    (["at-6", "--points", "9"], "--points must be 1 to 5"),
])
def test_new_refuses_clearly_and_writes_nothing(fork, args, says):
    before = _snapshot(fork)
    done = _grader("new", *args, "--repo", str(fork))
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert _snapshot(fork) == before


def test_new_that_fails_half_way_takes_back_what_it_wrote(fork):
    (fork / "solutions").write_text("a file where the solutions folder should be\n")
    shutil.copyfile(REPO_ROOT / "README.md", fork / "README.md")  # its count is taken back too
    before = _snapshot(fork)
    done = _grader("new", "at-6", "--repo", str(fork))
    assert done.returncode == 2 and "nothing was written" in done.stderr, done.stderr
    assert _snapshot(fork) == before
    assert not (fork / "exercises" / "02_at_updates").exists()


# --- check ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def own_course(tmp_path_factory) -> Path:
    """A course of two exercises written with `grader new`: demo-1 as scaffolded (its checks
    strong), demo-2 with its compile check removed (weak: values only)."""
    repo = tmp_path_factory.mktemp("own") / "course"
    (repo / "exercises").mkdir(parents=True)
    (repo / "exercises" / "manifest.toml").write_text("# A course of our own.\n")
    for exercise_id in ("demo-1", "demo-2"):
        done = _grader("new", exercise_id, "--repo", str(repo))
        assert done.returncode == 0, done.stderr
    weak = repo / "exercises" / "01_demo" / "test_demo_2.py"
    text = weak.read_text()
    weak.write_text(text[:text.index("def test_compiles_once_for_any_factor")])
    return repo


@pytest.fixture(scope="module")
def survivors(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("survivors") / "found"


@pytest.fixture(scope="module")
def checked(own_course, survivors):
    return _grader("check", "--mutate", "--survivors", str(survivors), "--repo", str(own_course))


def test_scaffolded_exercise_is_sound_and_its_mutants_all_die(checked):
    line = _report_of(checked, "demo-1")
    assert line.startswith("ok    demo-1"), checked.stdout
    assert "0 survive" in line and "derived 2:" in line, line


def _report_of(checked, exercise_id: str) -> str:
    lines = checked.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if f" {exercise_id} " in line)
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


def test_unsound_exercise_is_reported_with_its_reason_and_fix(checked):
    assert checked.returncode == 1, checked.stdout + checked.stderr
    report = _report_of(checked, "demo-2")
    assert report.startswith("FAIL  demo-2"), report
    assert "mimic_no_jit.py returns the right values without the JAX idea, and passes every check" in report
    assert "fix: add a check that rejects it" in report


def test_weak_check_lets_a_derived_mutant_survive_by_name(checked):
    report = _report_of(checked, "demo-2")
    # Values only: neither dropping jit nor a static factor (a compile per value) is seen.
    assert "survives: drop-jit@scale" in report and "survives: static-arg@scale:factor" in report, report
    assert "2 survive every check" in checked.stdout


def test_survivors_are_written_one_file_each_for_the_weak_exercise_only(checked, survivors):
    assert "Traceback" not in checked.stderr, checked.stderr
    written = sorted(p.relative_to(survivors).as_posix() for p in survivors.rglob("*") if p.is_file())
    named = re.findall(r"survives: (\S+) \(", checked.stdout)
    assert written == sorted(f"demo-2/{name.replace(':', '_')}.py" for name in named), (written, named)
    assert {"demo-2/drop-jit@scale.py", "demo-2/static-arg@scale_factor.py"} <= set(written), written
    unjitted = (survivors / "demo-2" / "drop-jit@scale.py").read_text()
    assert "@jax.jit" not in unjitted and "def scale(x" in unjitted and "return x * factor" in unjitted
    assert "static_argnames" in (survivors / "demo-2" / "static-arg@scale_factor.py").read_text()
    assert f"wrote {len(written)} surviving mutants to {survivors}" in checked.stdout


def test_survivors_must_be_a_folder(own_course, tmp_path):
    (tmp_path / "taken").write_text("a file\n")
    done = _grader("check", "demo-1", "--mutate", "--survivors", str(tmp_path / "taken"), "--repo", str(own_course))
    assert done.returncode == 2 and "is a file: name a folder" in done.stderr, done.stderr
    assert (tmp_path / "taken").read_text() == "a file\n"


def test_built_in_exercise_passes_check():
    done = _grader("check", "purity-4")
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(line.startswith("ok    purity-4") for line in done.stdout.splitlines()), done.stdout


@pytest.mark.parametrize("damage, says", [
    (lambda repo: (repo / "solutions/01_demo/demo_1.py").unlink(),
     "solutions/01_demo/demo_1.py: missing: demo-1 (exercises/manifest.toml:"),
    (lambda repo: (repo / "exercises/01_demo/test_demo_1.py").unlink(), "exercises/01_demo/test_demo_1.py: missing"),
    (lambda repo: (repo / "exercises/01_demo/demo_1.py").write_text("import jax\n\ndef scale(x, factor)\n"),
     "exercises/01_demo/demo_1.py:3: syntax error"),
    (lambda repo: (repo / "exercises/01_demo/demo_1.py").write_text("import jax\nimport not_installed_here\n"),
     "exercises/01_demo/demo_1.py:2: imports not_installed_here, which is not installed"),
    (lambda repo: (repo / "exercises/manifest.toml").write_text("[[exercise]]\nid = demo-1\n"),
     "manifest.toml:2: not valid TOML"),
])
def test_bad_course_is_one_clear_error_naming_file_and_line(own_course, tmp_path, damage, says):
    repo = tmp_path / "course"
    shutil.copytree(own_course, repo)
    damage(repo)
    done = _grader("check", "demo-1", "--repo", str(repo))
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_an_id_in_two_assignments_is_refused_with_its_line(own_course, tmp_path):
    repo = tmp_path / "course"
    shutil.copytree(own_course, repo)
    with open(repo / "exercises" / "manifest.toml", "a") as manifest:
        manifest.write('\n[[assignment]]\nname = "one"\nexercises = ["demo"]\n\n'
                       '[[assignment]]\nname = "two"\nexercises = [\n    "demo-2",\n]\n')
    lines = (repo / "exercises" / "manifest.toml").read_text().splitlines()
    done = _grader("check", "--repo", str(repo))
    assert done.returncode == 2, done.stderr
    assert f"manifest.toml:{len(lines) - 1}: demo-2 is in assignment 'one' (line {len(lines) - 6}) and again in " \
           f"'two'" in done.stderr, done.stderr


# --- the operators, on their own --------------------------------------------------------------

SOLUTION = '''\
"""A solution that uses every construct an operator acts on."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames="n", donate_argnums=0)
def step(x, key, n: int):
    key, sub = jax.random.split(key)
    x = x.at[0].add(jax.random.normal(sub))
    total, _ = lax.scan(lambda c, v: (c + v, None), 0.0, x)
    jax.debug.print("total {}", total)
    return jax.checkpoint(jnp.sin)(x) * n + lax.stop_gradient(total)


def batched(xs, ys):
    return jax.vmap(lambda a, b: a - b, in_axes=(0, None))(xs, ys)


def update(params: dict, grads: dict):
    return {name: value - grads[name] for name, value in params.items()}
'''


def test_operators_name_each_mutant_and_leave_valid_modules():
    mutants = derive(ALL_EXERCISES[0], SOLUTION)
    names = {m.name for m in mutants}
    for expected in ("drop-jit@step", "unstatic-arg@step", "drop-donate@step", "static-arg@step:key",
                     "reuse-key@step", "at-add-to-set@step", "python-loop@step", "unroll@step", "python-print@step",
                     "drop-checkpoint@step", "drop-stop-gradient@step", "swap-in-axes@batched",
                     "vmap-to-loop@batched", "host-numpy@step", "mutate-input@update"):
        assert expected in names, sorted(names)
    assert {m.operator for m in mutants} <= set(OPERATORS)
    for mutant in mutants:
        compile(mutant.text, mutant.name, "exec")  # each is a module Python accepts
        assert mutant.text != SOLUTION
    assert len({m.text for m in mutants}) == len(mutants), "no two mutants alike"


def test_the_instructors_guide_lists_every_operator():
    guide = (REPO_ROOT / "docs" / "instructors.md").read_text()
    assert [name for name in OPERATORS if f"| `{name}` |" not in guide] == []
