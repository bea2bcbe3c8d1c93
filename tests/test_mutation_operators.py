"""The mutation operators on JAX idioms and a course's own operators: each makes the mutant it
should where it applies, none where it does not, and the mutants it makes run as described."""

from __future__ import annotations

import re

import jax.numpy as jnp
import numpy as np
import pytest

from grader import REPO_ROOT
from grader.core.selection import UsageProblem
from grader.course.mutation import OPERATORS, derive, derive_course
from grader.course.mutation_course import load_operators
from grader.course.mutation_rewrites import NOT_APPLICABLE_MARK
from support import ALL_EXERCISES

HEADER = "from functools import partial\n\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n\n"

RECURRENCE = HEADER + '''\
def _combine(left, right):
    a1, b1 = left
    a2, b2 = right
    return a1 * a2, a2 * b1 + b2


@jax.jit
def recurrence(a, b):
    """h[t] = a[t] * h[t - 1] + b[t], h[-1] = 0."""
    return lax.associative_scan(_combine, (a, b))[1]
'''


def _made(source: str, operator: str, course_operators=()) -> list[str]:
    """The bodies (after the solution's own imports) of the mutants `operator` makes of `source`."""
    mutants = derive(ALL_EXERCISES[0], source, course_operators)
    assert {m.operator for m in mutants} <= set(OPERATORS) | {o.name for o in course_operators}
    return [m.text.split("from jax import lax\n", 2)[-1] for m in mutants if m.operator == operator]


def _run(text: str, name: str):
    namespace: dict = {}
    exec(compile(text, name, "exec"), namespace)
    return namespace


# --- each operator: the mutant it makes, and where it makes none ------------------------------

MADE = [
    ("python-loop", RECURRENCE, ["_katas_python_associative_scan(_combine, (a, b))"]),
    ("swap-combine-order", RECURRENCE,
     ["lax.associative_scan(lambda _katas_first, _katas_second: _combine(_katas_second, _katas_first), (a, b))"]),
    ("swap-combine-op", RECURRENCE, ["return (a1 + a2, a2 * b1 + b2)", "return (a1 * a2, a2 * b1 * b2)",
                                     "return (a1 * a2, a2 + b1 + b2)"]),
    ("swap-combine-op", HEADER + "def total(x):\n    return lax.associative_scan(jnp.add, x)\n",
     ["lax.associative_scan(jnp.multiply, x)"]),
    ("closed-form-scan", RECURRENCE, ["_katas_closed_form_scan(_combine, (a, b))"]),
    ("swap-cumulative", HEADER + "def f(x):\n    return jnp.cumsum(x) + lax.cummax(x, axis=0)\n",
     ["jnp.cumprod(x) + lax.cummax(x, axis=0)", "jnp.cumsum(x) + lax.cummin(x, axis=0)"]),
    ("swap-cumulative", HEADER + "def f(mesh):\n    return jax.shard_map(jnp.cumprod, mesh=mesh, in_specs=0, "
                                 "out_specs=0)\n", ["jax.shard_map(jnp.cumsum,"]),
    ("loop-to-fori", HEADER + "@partial(jax.jit, static_argnames='n')\ndef f(x, n):\n    total = jnp.zeros_like(x)\n"
                              "    for i in range(1, n):\n        y = x * i\n        total = total + y\n"
                              "    return total\n",
     ["def _katas_loop_body(i, _katas_carry):\n        total, = _katas_carry\n        y = x * i\n"
      "        total = total + y\n        return (total,)\n"
      "    total, = _katas_jax.lax.fori_loop(1, n, _katas_loop_body, (total,))"]),
    ("swap-branches", HEADER + "def f(x):\n    return jnp.where(x > 0, x, 0.0)\n", ["jnp.where(x > 0, 0.0, x)"]),
    ("swap-branches", HEADER + "def f(p, x):\n    return lax.select(p, x, -x)\n", ["lax.select(p, -x, x)"]),
    ("swap-branches", HEADER + "def f(n):\n    return lax.cond(n > 0, jnp.sin, jnp.cos, n)\n",
     ["lax.cond(n > 0, jnp.cos, jnp.sin, n)"]),
    ("where-one-branch", HEADER + "def f(n):\n    safe = jnp.where(n == 0, 1.0, n)\n    return jnp.sqrt(safe)\n",
     ["safe = n\n"]),
    ("swap-dtype", HEADER + "def f(x):\n    return x.astype(jnp.float32)\n", ["x.astype(jnp.bfloat16)"]),
    ("swap-dtype", HEADER + "def f(x):\n    return jnp.asarray(x, dtype=jnp.bfloat16)\n",
     ["jnp.asarray(x, dtype=jnp.float32)"]),
    ("swap-dtype", HEADER + "jax.config.update('jax_enable_x64', True)\n\ndef f(x):\n    return jnp.ones(3, 'float32')"
                            " + jnp.zeros(3, dtype='float32')\n",
     ["jnp.ones(3, 'float32') + jnp.zeros(3, dtype='bfloat16')", "jnp.ones(3, 'float32') + jnp.zeros(3, "
                                                                 "dtype='float64')"]),
    ("drop-astype", HEADER + "def f(x, y):\n    return x.astype(y.dtype) + jnp.astype(y, jnp.int32)\n",
     ["return x + jnp.astype(y, jnp.int32)", "return x.astype(y.dtype) + y"]),
    ("drop-dtype", HEADER + "def f(a, b):\n    return jnp.dot(a, b, preferred_element_type=jnp.float32)\n",
     ["return jnp.dot(a, b)"]),
    ("in-axes-entry", HEADER + "def f(xs, w):\n    return jax.vmap(jnp.dot, in_axes=(0, None))(xs, w)\n",
     ["in_axes=(None, None)", "in_axes=(0, 0)"]),
    ("in-axes-entry", HEADER + "def f(xs, w):\n    return jax.vmap(jnp.dot, (0, None))(xs, w)\n",
     ["jax.vmap(jnp.dot, (None, None))", "jax.vmap(jnp.dot, (0, 0))"]),
]


@pytest.mark.parametrize("operator, source, expected", MADE,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MADE)])
def test_operator_makes_its_mutant(operator, source, expected):
    made = _made(source, operator)
    for text in expected:
        assert sum(text in m for m in made) == 1, (text, made)
    assert len(made) == len(expected), made
    for mutant in made:
        compile(mutant, operator, "exec")


NOT_MADE = [
    ("swap-combine-op", HEADER + "def f(x, y):\n    return lax.scan(lambda c, v: (c + v, c * v), x, y)\n"),
    ("swap-combine-order", HEADER + "def f(x):\n    return jnp.cumsum(x)\n"),
    ("swap-cumulative", HEADER + "import numpy as np\n\ndef f(x):\n    return np.cumsum(x) + jnp.sum(x)\n"),
    ("loop-to-fori", HEADER + "def f(xs):\n    out = []\n    for x in xs:\n        out = out + [x]\n    return out\n"),
    ("loop-to-fori", HEADER + "def f(x):\n    for i in range(3):\n        if x[i] > 0:\n            break\n"
                              "        x = x + 1\n    return x\n"),
    ("loop-to-fori", HEADER + "def f(x):\n    for i in range(3):\n        print(i)\n    return x\n"),
    ("swap-branches", HEADER + "def f(x):\n    return jnp.where(x > 0)\n"),
    ("where-one-branch", HEADER + "def f(x):\n    return jnp.where(x > 0, 1.0, -1)\n"),
    ("swap-dtype", HEADER + "def f(x):\n    return x.astype(jnp.float64) + x.astype(jnp.int32)\n"),
    ("drop-dtype", HEADER + "import numpy as np\n\ndef f(x):\n    return np.asarray(x, dtype=np.float32)\n"),
    ("in-axes-entry", HEADER + "def f(xs):\n    return jax.vmap(jnp.sin, in_axes=0)(xs)\n"),
]


@pytest.mark.parametrize("operator, source", NOT_MADE, ids=[f"{m[0]}-{i}" for i, m in enumerate(NOT_MADE)])
def test_operator_makes_no_mutant_where_it_does_not_apply(operator, source):
    assert _made(source, operator) == []


# --- the mutants run as described --------------------------------------------------------------


def _recurrence_mutant(operator: str) -> dict:
    (mutant,) = [m for m in derive(ALL_EXERCISES[0], RECURRENCE) if m.operator == operator]
    return _run(mutant.text, mutant.name)


def test_unrolled_and_closed_form_scans_give_the_values_on_a_short_sequence():
    reference = _run(RECURRENCE, "reference")["recurrence"]
    a, b = jnp.full(6, 0.9), jnp.arange(6.0)
    expected = np.asarray(reference(a, b))
    for operator in ("python-loop", "closed-form-scan"):
        np.testing.assert_allclose(_recurrence_mutant(operator)["recurrence"](a, b), expected, rtol=1e-5)
    assert not np.allclose(_recurrence_mutant("swap-combine-order")["recurrence"](a, b), expected)


def test_closed_form_breaks_down_where_the_products_underflow():
    a, b = jnp.full(200, 0.5), jnp.ones(200)  # 0.5 ** 200 is 0 in float32: b / 0
    np.testing.assert_allclose(_run(RECURRENCE, "reference")["recurrence"](a, b)[-1], 2.0, rtol=1e-5)
    assert not np.isfinite(_recurrence_mutant("closed-form-scan")["recurrence"](a, b)[-1])


def test_closed_form_does_not_apply_to_another_combine():
    source = RECURRENCE.replace("return a1 * a2, a2 * b1 + b2", "return a1 + a2, jnp.maximum(b1, b2)")
    (mutant,) = [m for m in derive(ALL_EXERCISES[0], source) if m.operator == "closed-form-scan"]
    with pytest.raises(RuntimeError, match=NOT_APPLICABLE_MARK):
        _run(mutant.text, mutant.name)["recurrence"](jnp.ones(4), jnp.ones(4))


def test_reverse_python_associative_scan_matches_lax():
    source = RECURRENCE.replace("(_combine, (a, b))", "(_combine, (a, b), reverse=True)")
    (mutant,) = [m for m in derive(ALL_EXERCISES[0], source) if m.operator == "python-loop"]
    a, b = jnp.linspace(0.5, 1.0, 5), jnp.arange(5.0)
    np.testing.assert_allclose(_run(mutant.text, mutant.name)["recurrence"](a, b),
                               _run(source, "reference")["recurrence"](a, b), rtol=1e-5)


def test_rolled_loop_gives_the_loops_values():
    source = MADE[7][1]
    (mutant,) = [m for m in derive(ALL_EXERCISES[0], source) if m.operator == "loop-to-fori"]
    x = jnp.arange(3.0)
    np.testing.assert_allclose(_run(mutant.text, mutant.name)["f"](x, n=4), _run(source, "reference")["f"](x, n=4))


# --- a course's own operators ---------------------------------------------------------------------


def _guide_example() -> str:
    guide = (REPO_ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")
    return re.search(r"```python\n(# mutations\.py, at the root.*?)```", guide, re.S).group(1)


SOFTMAX = HEADER + "def log_probs(logits):\n    return jax.nn.log_softmax(logits, axis=-1)\n"


def test_the_guides_course_operator_is_loaded_and_makes_its_mutant(tmp_path):
    (tmp_path / "mutations.py").write_text(_guide_example())
    own = load_operators(tmp_path, set(OPERATORS))
    assert [o.name for o in own] == ["log-of-softmax"]
    (mutant,) = [m for m in derive(ALL_EXERCISES[0], SOFTMAX, own) if m.operator == "log-of-softmax"]
    assert mutant.name == "log-of-softmax@log_probs" and "return jnp.log(jax.nn.softmax(logits, axis=-1))" in mutant.text
    logits = jnp.array([0.0, 200.0])
    assert np.isfinite(_run(SOFTMAX, "reference")["log_probs"](logits)).all()
    assert not np.isfinite(_run(mutant.text, mutant.name)["log_probs"](logits)).all()


def test_a_course_operator_reaches_every_solution_of_the_course(tmp_path):
    (tmp_path / "mutations.py").write_text(_guide_example())
    entry = ALL_EXERCISES[0]
    (tmp_path / "solutions" / entry.path).parent.mkdir(parents=True)
    (tmp_path / "solutions" / entry.path).write_text(SOFTMAX)
    assert "log-of-softmax@log_probs" in {m.name for m in derive_course(tmp_path, [entry])}


@pytest.mark.parametrize("text, says", [
    ("from grader.course.mutation_course import operator\n\n@operator('x', 'y')\ndef f(node, name_of)\n",
     "mutations.py:4: cannot be loaded: SyntaxError"),
    ("import ast\n\nraise ValueError('broken')\n", "mutations.py:3: cannot be loaded: ValueError: broken"),
    ("def helper():\n    pass\n", "mutations.py: defines no operator"),
    ("from grader.course.mutation_course import operator\n\n@operator('drop-jit', 'mine')\n"
     "def f(node, name_of):\n    return None\n", "operator drop-jit is named twice or is a built-in"),
])
def test_an_unusable_course_file_is_one_clear_error(tmp_path, text, says):
    (tmp_path / "mutations.py").write_text(text)
    with pytest.raises(UsageProblem, match=re.escape(says)):
        load_operators(tmp_path, set(OPERATORS))


def test_a_course_operator_that_returns_no_node_of_the_kind_it_replaces_is_named(tmp_path):
    (tmp_path / "mutations.py").write_text(
        "import ast\nfrom grader.course.mutation_course import operator\n\n"
        "@operator('text', 'returns text')\ndef text(node, name_of):\n    return 'x' if isinstance(node, ast.Return) "
        "else None\n\n@operator('statement', 'a statement where an expression goes')\ndef statement(node, name_of):\n"
        "    return ast.Pass() if isinstance(node, ast.Call) else None\n")
    own = load_operators(tmp_path, set(OPERATORS))
    for operator, says in (("text", "operator text returned str for Return"),
                           ("statement", "operator statement returned Pass for Call (line 9): return an ast expr")):
        with pytest.raises(UsageProblem, match=re.escape(says)):
            derive(ALL_EXERCISES[0], SOFTMAX, [o for o in own if o.name == operator])
