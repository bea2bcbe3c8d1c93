"""Checks for memory-2 (remat_policy)."""

import jax
import numpy as np

from grader import checks

REMAT_DOCS = f"{checks.DOCS}/gradient-checkpointing.html"
L, B, H = 6, 8, 8  # layers, batch, width; pre is (B, 2H)
_rs = np.random.RandomState(1)
W1S = (_rs.randn(L, H, 2 * H) / np.sqrt(H)).astype(np.float32)
W2S = (_rs.randn(L, 2 * H, H) / np.sqrt(2 * H)).astype(np.float32)
X = _rs.randn(B, H).astype(np.float32)


def _reference(w1s, w2s, x):
    """The loss in float64 NumPy."""
    y = np.asarray(x, np.float64)
    for w1, w2 in zip(w1s.astype(np.float64), w2s.astype(np.float64)):
        y = np.tanh(np.sin(y @ w1) @ w2)
    return np.mean(y ** 2)


def _is_pre(value):
    return value.source == "dot_general" and value.shape == (B, 2 * H)


def _checkpointed_steps(program):
    """The jax.checkpoint calls inside a scan's step that hold a layer's matmul."""
    return [eqn for scan in program.find("scan") for eqn in checks.Program(scan.params["jaxpr"]).find("remat2")
            if checks.Program(eqn.params["jaxpr"]).has("dot_general")]


def _names(exercise, params):
    """The names given with checkpoint_name anywhere in loss's program."""
    program = checks.program_of(exercise.loss, params, X, what="loss")
    return sorted({str(eqn.params.get("name")) for eqn in program.find("name")})


def test_each_layer_keeps_its_input_and_pre(exercise):
    params = (W1S, W2S)
    program = checks.program_of(jax.grad(exercise.loss), params, X, what="jax.grad(loss)")
    checks.assert_uses(program, {"scan"}, what="loss", tool="lax.scan",
                       hint="Run the layers with one lax.scan over the stacked params, as the task says.")
    # Per layer means a loop: a scan unrolled into one copy of the block per layer keeps the same
    # residuals on paper, but as L separate programs' worth of values, not one stacked per step.
    checks.assert_loops_rolled(program, what="jax.grad(loss)",
                               hint="Keep the scan over the layers rolled (no unroll=).")
    stored = program.stored_per_step()
    inputs = [s for s in stored if s.source == "input"]
    pres = [s for s in stored if _is_pre(s)]
    others = [s for s in stored if s not in inputs and s not in pres]
    if inputs and pres and not others and len(stored) == 2:
        # The gradient's own program, where autodiff used it: a checkpoint that only a custom_vjp's
        # primal function holds shows in the forward program but never runs under jax.grad.
        if not _checkpointed_steps(program):
            checks.fail(f"loss keeps each layer's input and pre, but no jax.checkpoint inside the scan's step "
                        f"decides it: the residuals are chosen by hand (a custom_vjp, say). The task is "
                        f"jax.checkpoint with a policy. See {REMAT_DOCS}", "wrong-tool")
        forward = checks.program_of(exercise.loss, params, X, what="loss")
        if not any(eqn.params.get("name") == "pre" for step in _checkpointed_steps(forward)
                   for eqn in checks.Program(step.params["jaxpr"]).find("name")):
            checks.fail(f"loss keeps each layer's input and pre, but pre is named outside the checkpoint: "
                        f"jax.checkpoint wraps only the work after pre, which keeps pre as that part's input, "
                        f"and no policy chooses it. The task checkpoints the whole block, pre named inside "
                        f"it, with a policy that saves that name. See {REMAT_DOCS}", "wrong-tool")
        if pres[0].name != "pre":
            checks.fail(f"loss keeps each layer's input and pre, but pre is kept unnamed: the policy did not "
                        f"choose it by name (checkpointing only the work after pre keeps pre as that part's "
                        f"input, for one). The task names the value with checkpoint_name and has the "
                        f"policy save that name. See {REMAT_DOCS}", "wrong-tool")
        # Kept and used: per layer the forward pass computes x @ w1 (B x 2H) and sin(pre) @ w2 (B x H);
        # the backward pass recomputes only the second, then takes the four matmuls of the gradients.
        expected = L * ((B * 2 * H + B * H) + (B * H + 2 * H * H + B * 2 * H + H * 2 * H + B * H))
        done = program.times("dot_general", elements=True)
        if done > expected:
            checks.fail(f"loss keeps each layer's input and a value named pre, yet its gradient computes "
                        f"{done} matmul output values where keeping pre and recomputing the rest takes "
                        f"{expected}: the backward pass recomputes x @ w1 all the same (the value kept "
                        f"as pre is not the one the layer goes on with). Name the matmul's output the "
                        f"layer uses, so the backward pass reads it instead. See {REMAT_DOCS}", "memory-use")
        return
    kept = "; ".join(s.describe() for s in stored) or "nothing"
    remats = checks.program_of(exercise.loss, params, X, what="loss").find("remat2")
    if not remats:
        why = ("Nothing is checkpointed, so autodiff keeps every value the backward pass reads. Wrap the "
               "block in jax.checkpoint with a policy that saves only the value named 'pre'.")
    elif not pres and "pre" not in (names := _names(exercise, params)):
        given = f"the only names given are {', '.join(map(repr, names))}" if names else "no value is named at all"
        why = (f"pre = x @ w1 is not among them, and no value in block is named 'pre' ({given}). A "
               f"policy that saves values by name keeps only values that carry the name: give the matmul's "
               f"output the name 'pre' with checkpoint_name, and have the policy save that name.")
    elif not pres:
        named = [s for s in stored if s.name]
        why = (f"pre = x @ w1 is not among them, so the backward pass recomputes that matmul too. "
               + (f"The value kept under a name is a {named[0].source} result: name the matmul's output "
                  f"itself. " if named else "")
               + "A policy saves what it is told to: the default saves nothing, and "
                 "save_only_these_names saves the values named with checkpoint_name.")
    else:
        why = ("The policy keeps more than pre: every value besides the layer's input and pre should be "
               "recomputed (dots_saveable, for one, keeps the second matmul's output too).")
    checks.fail(checks.sentence(
        f"Under jax.grad, loss keeps {len(stored)} array(s) per layer for the backward pass ({kept}), "
        f"each stacked {L} times; expected two: the layer's input float32[{B}, {H}] and pre, the "
        f"float32[{B}, {2 * H}] output of x @ w1.", why, f"See {REMAT_DOCS}"), "memory-use")


def test_loss_under_jit(exercise):
    # The forward value is enough here: jax.checkpoint and its policy change what is kept, never the
    # numbers, and the gradient of the right function is right (compiling it would double the cost).
    value = jax.jit(exercise.loss)((W1S, W2S), X)
    checks.assert_close(value, _reference(W1S, W2S, X), rtol=1e-4, what="jax.jit(loss)(params, x)",
                        hint="Apply the layers in order (lax.scan over params walks them first to last) "
                             "and return the mean of the final output squared.")
