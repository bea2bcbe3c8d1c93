"""Checks for dtype-2 (mixed_precision)."""

import jax
import jax.extend
import jax.numpy as jnp
import numpy as np

from grader import checks

DOCS = f"See {checks.DOCS}/type_promotion.html"
LR = 1e-3


def _problem(seed=2):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(32, 8)).astype(np.float32)
    # Weights near 1.0, where bfloat16 values are 2**-7 apart: an lr * grad step is far smaller.
    params = {"w": rng.uniform(0.5, 1.5, size=(8, 4)).astype(np.float32),
              "b": rng.uniform(0.5, 1.5, size=4).astype(np.float32)}
    y = (x @ rng.uniform(0.5, 1.5, size=(8, 4)) + 0.1 * rng.normal(size=(32, 4))).astype(np.float32)
    return params, x, y


def _reference(params, x, y):
    """Loss and gradients in float64: the float32 ideal a bfloat16 forward pass approximates."""
    w, b = params["w"].astype(np.float64), params["b"].astype(np.float64)
    err = x @ w + b - y
    n = err.size
    return np.mean(err ** 2), {"w": 2.0 * x.T @ err / n, "b": 2.0 * err.sum(axis=0) / n}


def _all_eqns(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _all_eqns(getattr(sub, "jaxpr", sub))


def _is_matmul(eqn):
    """A dot_general of matrices that keeps a free axis (x @ w and its transposes), not one that contracts
    all it does not batch (a sum of squares: a flat vdot, or an einsum such as 'ij,ij->')."""
    if eqn.primitive.name != "dot_general" or any(v.aval.ndim < 2 for v in eqn.invars):
        return False
    _, (batch, _) = eqn.params["dimension_numbers"]
    return eqn.outvars[0].aval.ndim > len(batch)


def _matmuls_in_bfloat16(eqns, what):
    dots = [e for e in eqns if _is_matmul(e)]
    if not dots:
        checks.fail(f"{what} has no matmul (dot_general) in its program: compute x @ w with jnp.dot, "
                    f"jnp.matmul or @. {DOCS}", "wrong-tool")
    for eqn in dots:
        dtypes = [v.aval.dtype.name for v in eqn.invars]
        if any(d != "bfloat16" for d in dtypes):
            checks.fail(f"{what}: a matmul in its program runs on {' x '.join(dtypes)} operands. Mixed "
                        f"precision does the matmuls (forward and, through jax.grad, backward) in bfloat16: "
                        f"cast the parameters and the inputs to bfloat16 before multiplying, keeping the "
                        f"float32 originals as the master copy. {DOCS}", "precision")


# What a matmul's result may pass through on its way to the bias add: casts, broadcasts, reshapes.
ON_THE_WAY = {"convert_element_type", "broadcast_in_dim", "reshape"}


def _bias_adds(eqns):
    """(matmul, add, the add's bias operand) for each add that takes a matmul's result through casts and
    broadcasts: x @ w + b's bias add."""
    users = {}
    for eqn in eqns:
        for var in eqn.invars:
            if not isinstance(var, jax.extend.core.Literal):
                users.setdefault(var, []).append(eqn)
    for dot in (e for e in eqns if _is_matmul(e)):
        frontier, reached = list(dot.outvars), set(dot.outvars)
        while frontier:
            for eqn in users.get(frontier.pop(), ()):
                if eqn.primitive.name in ON_THE_WAY:
                    frontier += eqn.outvars
                    reached.update(eqn.outvars)
                elif eqn.primitive.name == "add":
                    yield dot, eqn, next((v for v in eqn.invars if v not in reached), eqn.invars[0])


def _was_bfloat16(var, eqns):
    """Whether `var` is, or was cast or broadcast from, a bfloat16 value."""
    producers = {out: eqn for eqn in eqns for out in eqn.outvars}
    while var.aval.dtype != jnp.bfloat16:
        eqn = producers.get(var)
        if eqn is None or eqn.primitive.name not in ON_THE_WAY:
            return False
        var = eqn.invars[0]
    return True


def _bias_added_in_bfloat16(eqns):
    for dot, add, bias in _bias_adds(eqns):
        made, added = dot.outvars[0].aval.dtype, add.outvars[0].aval.dtype
        if added == jnp.bfloat16:
            continue
        if made != jnp.bfloat16:
            why = (f"the matmul itself returns {made.name} (a preferred_element_type), and the bias add "
                   f"follows it. Let the matmul of bfloat16 operands return bfloat16")
        elif _was_bfloat16(bias, eqns):
            why = (f"the bfloat16 product is cast to {added.name} before the bias is added. Add the bias in "
                   f"bfloat16 first, then cast")
        else:
            why = (f"params['b'] is still {added.name}, and bfloat16 + {added.name} promotes to {added.name}: "
                   f"the bfloat16 product is converted up for the add. Cast b to bfloat16 like w and x")
        checks.fail(f"loss_fn adds the bias in {added.name}: {why}. The task asks for the matmul and the bias "
                    f"add in bfloat16, and float32 for the mean. {DOCS}", "precision")


# Primitives that add up the elements of an array (running sums and windowed sums included).
_REDUCTIONS = frozenset({"reduce_sum", "cumsum", "reduce_window_sum", "reduce_window", "reduce"})
# Primitives that take elements out of an array without computing with them.
_PICKS = frozenset({"slice", "dynamic_slice", "gather", "squeeze", "reshape", "index_in_dim", "expand_dims"})


def _from_y(jaxpr):
    """The ids of the variables (nested jaxprs' too) computed from y, loss_fn's last input."""
    found = {id(jaxpr.invars[-1])}

    def walk(level):
        for eqn in level.eqns:
            hit = any(id(v) in found for v in eqn.invars if not isinstance(v, jax.extend.core.Literal))
            for sub in jax.extend.core.jaxprs_in_params(eqn.params):
                inner = getattr(sub, "jaxpr", sub)
                if len(inner.invars) == len(eqn.invars):  # a call: its operands, one for one
                    found.update(id(i) for i, o in zip(inner.invars, eqn.invars) if id(o) in found)
                elif hit:
                    found.update(id(v) for v in inner.invars)
                walk(inner)
            if hit:
                found.update(id(v) for v in eqn.outvars)

    walk(jaxpr)
    return found


def _sums(eqns, from_y=frozenset()):
    """The positions of the equations that sum many numbers: reductions, non-matmul dot_generals, any
    dot_general of values computed from y (a product of the errors sums them: err.T @ err), and adds
    of elements picked from one array (`sq[0] + sq[1] + ...`, a sum written out)."""
    picked, found = {}, []
    for i, e in enumerate(eqns):
        name = e.primitive.name
        if name in _REDUCTIONS or (name == "dot_general" and (not _is_matmul(e) or any(
                id(v) in from_y for v in e.invars))):
            found.append(i)
        elif name in _PICKS and e.invars and not isinstance(e.invars[0], jax.extend.core.Literal):
            picked[id(e.outvars[0])] = picked.get(id(e.invars[0]), id(e.invars[0]))
        elif name in ("add", "add_any"):
            sources = {picked.get(id(v)) for v in e.invars if not isinstance(v, jax.extend.core.Literal)}
            if len(sources) == 1 and None not in sources and len(e.invars) == 2:
                picked[id(e.outvars[0])] = sources.pop()
                found.append(i)
    return found


def test_loss_is_a_float32_scalar(exercise):
    params, x, y = _problem()
    arrays = {k: jnp.asarray(v) for k, v in params.items()}
    loss = jax.jit(exercise.loss_fn)(arrays, jnp.asarray(x), jnp.asarray(y))
    checks.assert_shape_dtype(loss, (), np.float32, what="loss_fn(params, x, y)",
                              hint="The mean is taken, and returned, in float32.")
    checks.assert_close(loss, _reference(params, x, y)[0], rtol=3e-2, what="loss_fn(params, x, y)",
                        hint="Mean of (x @ w + b - y) ** 2 over every element.")


def test_loss_multiplies_in_bfloat16_and_averages_in_float32(exercise):
    params, x, y = _problem()
    program = checks.program_of(exercise.loss_fn, params, x, y, what="loss_fn")
    checks.assert_no_callbacks(program, what="loss_fn")
    eqns = list(_all_eqns(program.jaxpr.jaxpr))
    _matmuls_in_bfloat16(eqns, "loss_fn")
    _bias_added_in_bfloat16(eqns)
    sums = _sums(eqns, _from_y(program.jaxpr.jaxpr))
    for i in sums:
        # A reduction adds in its operand's dtype; a dot_general in its result's (preferred_element_type).
        into = eqns[i].outvars[0].aval.dtype
        if into != jnp.float32:
            name = eqns[i].primitive.name
            how = ("a dot_general's accumulator" if name == "dot_general" else
                   "adds of the elements of one array, one by one" if name in ("add", "add_any") else f"a {name}")
            checks.fail(f"loss_fn sums into {into.name} ({how} in its program): adding many bfloat16 "
                        f"numbers in bfloat16 drops the small ones. Take the mean in float32. {DOCS}",
                        "precision")
    if not sums:
        checks.fail("loss_fn's program has no sum (reduce_sum): the loss is the mean over every element. "
                    f"{DOCS}", "wrong-values")
    rounded = [e for e in eqns[sums[-1] + 1:] for v in e.outvars if v.aval.dtype == jnp.bfloat16]
    if rounded:
        checks.fail("loss_fn sums in float32 but then rounds the mean to bfloat16 (a convert_element_type "
                    "after the last reduce_sum), as jnp.mean of a bfloat16 array does: the loss keeps "
                    "only about 3 digits, whatever dtype it is cast back to. Ask the mean for float32, or "
                    f"cast before it. {DOCS}", "precision")
    checks.assert_computes(program, _reference(params, x, y)[0], what="loss_fn(params, x, y)", rtol=3e-2)


def test_train_step_keeps_float32_master_weights(exercise):
    params, x, y = _problem(3)
    new = jax.jit(exercise.train_step)({k: jnp.asarray(v) for k, v in params.items()}, jnp.asarray(x),
                                       jnp.asarray(y), LR)
    if not isinstance(new, dict) or set(new) != {"w", "b"}:
        checks.fail(f"train_step returned {type(new).__name__}"
                    f"{' with keys ' + str(sorted(new)) if isinstance(new, dict) else ''}; expected a dict "
                    f"with the same keys as params.", "wrong-shape")
    for name in ("w", "b"):
        checks.assert_shape_dtype(new[name], params[name].shape, np.float32, what=f"train_step(...)['{name}']",
                                  hint="The master weights stay float32; only the computation is bfloat16.")
    _, grads = _reference(params, x, y)
    for name in ("w", "b"):
        step = np.asarray(new[name], np.float64) - params[name]
        want = -LR * grads[name]
        checks.assert_close(step, want, rtol=5e-2, atol=0.02 * np.abs(want).max(),
                            what=f"the change train_step made to params['{name}']",
                            hint="A step of lr * grad (about 1e-4 here) is far below bfloat16's spacing "
                                 "near 1.0 (2**-7): it survives only on float32 master weights, updated "
                                 "in float32.")
    program = checks.program_of(exercise.train_step, params, x, y, LR, what="train_step")
    checks.assert_no_callbacks(program, what="train_step")
    _matmuls_in_bfloat16(list(_all_eqns(program.jaxpr.jaxpr)), "train_step")
    steps = {name: -LR * grads[name] for name in grads}
    checks.assert_computes(program, {name: params[name] + steps[name] for name in steps},
                           what="train_step(params, x, y, lr)", rtol=0,
                           atol=0.02 * max(np.abs(step).max() for step in steps.values()))


def test_train_step_differentiates_loss_fn(exercise):
    # Swap loss_fn for another loss: a step that takes jax.grad of loss_fn follows it, a gradient
    # formula written out by hand does not. New shapes, so no cached trace of the original is reused.
    rng = np.random.default_rng(5)
    params = {"w": rng.uniform(0.5, 1.5, size=(3, 2)).astype(np.float32),
              "b": rng.uniform(0.5, 1.5, size=2).astype(np.float32)}
    x, y = rng.normal(size=(5, 3)).astype(np.float32), rng.normal(size=(5, 2)).astype(np.float32)

    def other_loss(params, x, y):  # gradient: 2 w + 1 for w (round's slope set to 1 by a rule), 3 for every b
        w = params["w"]
        return jnp.sum(w ** 2) + jnp.sum(checks.straight_through_round(w)) + 3.0 * jnp.sum(params["b"])

    with checks.swap_function(exercise, "loss_fn", other_loss):  # traced and on arrays: it follows both
        news = checks.both_ways(exercise.train_step, {k: jnp.asarray(v) for k, v in params.items()},
                                jnp.asarray(x), jnp.asarray(y), 0.1)
    want = {"w": params["w"] - 0.1 * (2 * params["w"] + 1), "b": params["b"] - 0.1 * 3.0}
    for how, new in news.items():
        checks.assert_follows(new, want, what=f"train_step(params, x, y, 0.1) {how}", swapped="loss_fn",
                              rtol=1e-5, hint="One SGD step uses the gradient of loss_fn itself, by jax.grad: "
                                              "jax.grad follows the casts, and so the bfloat16 matmuls run "
                                              "backwards too. It follows the rules JAX knows for loss_fn's "
                                              "operations, custom ones included: the loss here holds a round "
                                              "whose derivative JAX was told is 1 (jax.custom_jvp).")
