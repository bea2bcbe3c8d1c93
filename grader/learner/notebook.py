"""The katas in a notebook: `grader notebooks OUT/` and the `%%kata` magic that checks a cell.

`grader notebooks OUT/` writes one notebook per topic, in manifest order. It
opens with a set-up cell (`%load_ext grader.learner.notebook`); then, for each
exercise, its lesson (the stub's docstring) as markdown and its code in a cell
headed `%%kata ID`. Running that cell runs the code in the kernel, as any
cell, and then checks it: the cell's source is saved as the exercise's file in
`.katas-notebook/` in the katas checkout (a folder shaped like exercises/:
`NN_topic/<name>.py`, line numbers as in the cell), and the exercise's own
checks run on it in a fresh pytest process (`--target .katas-notebook`), which
gets 8 virtual CPU devices whatever this kernel's JAX has done, or the real
ones with JAX_KATAS_REAL_DEVICES=1. The cell shows what a learner needs of that
run: each check, passed or failed with its lesson.

The result goes into the checkout's progress file, the one a learner's pytest
run and `grader progress` use, under the fingerprint the checks would have if
the exercise file held the cell's code (grader.core.progress.fingerprint with
`code_dir`), marked as a notebook result: it stays valid while the saved copy
and the checks are unchanged. Each exercise keeps its latest result, from a
notebook or from pytest.

`%kata hint [ID]`, `%kata progress` and `%kata solution ID` are the grader
commands of the same names.

The parts: this module is the IPython extension (the magic); writing the
notebooks is grader.learner.notebook_writer, checking a cell and showing the
result grader.learner.cell_checks, and the check process's side (a pytest
plugin that hands the results back) grader.learner.cell_report.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from grader.core.manifest import Exercise, suggest
from grader.core.selection import UsageProblem
from grader.learner import learn
from grader.learner.cell_checks import N_DEVICES, REAL_DEVICES_ENV, check_cell, show


def configure_kernel_jax() -> str:
    """Give this kernel's JAX the checks' devices (8 virtual CPUs) unless told to use the real ones."""
    if os.environ.get(REAL_DEVICES_ENV) == "1":
        import jax

        return f"this kernel and the checks use the real devices: {jax.device_count()} {jax.default_backend()}"
    import jax

    try:
        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_num_cpu_devices", N_DEVICES)
        jax.config.update("jax_enable_x64", False)
    except RuntimeError:
        return (f"the checks get {N_DEVICES} virtual CPU devices; this kernel's JAX had started already, with "
                f"{jax.device_count()} {jax.default_backend()} device(s) (restart the kernel and run the set-up "
                f"cell first to have {N_DEVICES} here too)")
    count = jax.device_count()
    return f"this kernel and the checks get {count} virtual CPU devices ({REAL_DEVICES_ENV}=1: the real ones)"


class _Magic:
    """`%%kata ID` over an exercise's code cell; `%kata hint|progress|solution ...`."""

    def __init__(self, shell, repo: Path, exercises) -> None:
        self.shell, self.repo, self.exercises = shell, repo, exercises

    def find(self, name: str) -> Exercise:
        from IPython.core.error import UsageError

        for exercise in self.exercises:
            if name == exercise.id:
                return exercise
        raise UsageError(suggest(self.exercises, name))

    def __call__(self, line: str, cell: str | None = None):
        from IPython.core.error import UsageError

        words = line.split()
        if cell is not None:
            if len(words) != 1:
                raise UsageError("head an exercise's code cell with `%%kata ID`, e.g. `%%kata purity-1`")
            return self.check(self.find(words[0]), cell)
        if words and words[0] in ("hint", "progress", "solution"):
            return self.command(words[0], words[1:])
        raise UsageError("%kata hint [ID] | %kata progress | %kata solution ID; to check an exercise, put "
                         "`%%kata ID` on the first line of its code cell and run the cell")

    def check(self, exercise: Exercise, body: str) -> None:
        self.shell.run_cell(body, store_history=False)  # as any cell: the learner can use it below
        print(f"checking {exercise.id} ...", flush=True)
        result = check_cell(self.repo, exercise, body)
        show(result, self.exercises)

    def command(self, name: str, rest: list[str]) -> None:
        from IPython.core.error import UsageError

        commands = {"hint": learn.show_hint, "progress": lambda course, _: learn.show_progress(course),
                    "solution": learn.show_solution}
        if name == "solution" and len(rest) != 1:
            raise UsageError("%kata solution ID")
        if len(rest) > 1:
            raise UsageError(f"%kata {name} takes at most one exercise id")
        try:  # an unknown id or topic comes back as a UsageProblem, with a suggestion
            course = dataclasses.replace(learn.course_from(self.repo), notebook=True)  # its messages say `%kata ...`
            commands[name](course, rest[0] if rest else None)
        except UsageProblem as problem:
            raise UsageError(str(problem)) from None


def load_ipython_extension(ipython) -> None:
    """`%load_ext grader.learner.notebook`: register %kata / %%kata for the katas checkout in use.

    The checkout is the one named by `KATAS` in the kernel (a generated notebook's
    set-up cell sets it to the checkout it was made from), else the one holding
    the kernel's working directory, else the one the grader was installed from.
    """
    from IPython.core.error import UsageError

    made_from = ipython.user_ns.get("KATAS")  # set by a generated notebook's set-up cell
    if not (isinstance(made_from, str) and (Path(made_from) / "exercises" / "manifest.toml").is_file()):
        made_from = None  # moved, or another machine: the checkout here, else the grader's own
    try:
        course = learn.course_from(made_from)
    except UsageProblem as problem:
        raise UsageError(str(problem)) from None
    try:
        devices = configure_kernel_jax()
    except ImportError as problem:
        raise UsageError(f"this kernel's Python cannot import JAX ({problem}): choose the kernel of the "
                         f"environment the katas are installed in, or install them into this one: "
                         f"pip install -e \"{course.repo}[notebooks]\"") from None
    ipython.register_magic_function(_Magic(ipython, course.repo, course.exercises), magic_kind="line_cell",
                                    magic_name="kata")
    print(f"JAX Katas ready: {len(course.exercises)} exercises in {course.repo}; {devices}.")
