"""Assertion helpers for the katas' checks: `from grader import checks`.

Each helper checks one JAX property and, when it fails, raises `KataFailure`
with a message that says what was expected, what happened and which JAX idea
is involved, plus a short code (`FAILURE_CODES`) naming the kind of mistake.
Checks call these instead of bare `assert`s so a learner never has to decode
`assert 3 == 4`.

- core: `fail`, `KataFailure`, `FAILURE_CODES`, `DOCS`
- values: `assert_close`, `assert_shape_dtype`, `assert_not_mutated` (and `keep_untouched`: inputs
  compared again after later calls and at the end of the check, `assert_kept_untouched`), `assert_sees_global_change`,
  `swap_function` + `both_ways` + `assert_follows` (the answer transforms the function the task names,
  traced and called on arrays; `straight_through_round` builds a swapped function whose derivative only
  JAX's autodiff takes),
  `read_setting`/`change_setting` and `assert_leaves_setting` (a global JAX setting as found, where the
  exercise runs), `observe` (a check's probe run beside the exercise), `Timeline` (a function and a
  fake clock to hand a probe's exercise, whose record the exercise cannot reach: grader.runtime.witness)
- witnessed: `Watch` (a function handed to the exercise whose runs, traced or not and under which
  settings, are recorded where the exercise cannot reach), `every_setting`/`assert_leaves_settings`
  (every global JAX setting left as found, where the exercise runs)
- site: where the exercise runs (this process, or the grader's subject process)
- compiles: `count_compiles`, `assert_compiles` (a budget that demands a compile),
  `assert_reuses_program` (repeated calls compile nothing), `assert_one_program` (calls trace to one
  program, compared where the check runs, each computing its call's value), `max_traces` (chex's trace counter on a
  function handed to the answer), `clear_caches` (JAX's caches emptied where the exercise
  runs, before a count)
- jitted: `assert_called_as_traced` (a call on arrays runs the compiled programs its trace shows),
  `assert_jitted` (a call runs one compiled program doing the work, traced and, where the
  whole work must be compiled, called on arrays too)
- programs, loops, compiled: `program_of` and `Program` (the jaxpr, its loops and per-device parts; what a forward
  scan stores per step for the backward pass, `StoredValue`; its largest value; `live` equations the
  outputs depend on, whether one call `wraps` input to output and the tool `applies_to_inputs` as they
  came in, and whether the result `follows_constants`, the data handed in: decoys do not count),
  `assert_uses`/`assert_not_uses`/`assert_no_callbacks`/`assert_real_valued` (the tool the task names), `assert_computes`
  (the program read is the one that computes the task's values: run by the examiner under the grader),
  `assert_runs_on_devices` (where the work ran), `assert_no_stacked_copies` (a shared input tiled
  per example), `compiled_program` (partitioned HLO), `compiled_jit` (a jitted function's own
  program, compiled here from its trace), `assert_receives_at_most` (bytes each device
  receives through collectives), `assert_not_unrolled`, `assert_loops_rolled`,
  `assert_not_unrolled_over_batch`, `assert_loop_stops_on_data` (a while loop that decides),
  `assert_loop_returns` (the outputs are what the loop hands back, not work beside it)
- devices: `handed_mesh` (a mesh whose blocks a mesh of the learner's own would misplace),
  `assert_on_devices`, `assert_sharding`, `assert_replicated`, `assert_split_over_devices`,
  `assert_donated` (buffer identity), `host_reads` (values read back to the host: printing
  included), `call_on_device` (a call that may read none back), `on_devices` (rerun a check with another device count)
- prng: `no_key_reuse`, `assert_keys_used_once` (seen through key_data), `assert_draws` (enough
  independent values drawn), `assert_not_rearranged` (no value a shuffled or negated copy of
  another), `assert_keys_not_from_draws` (keys derived from the key given)
- processes: `run_in_processes`
- layout: `picture(expected_sharding, array)` for a check's own `fail(..., picture=...)`; `Picture`
  (`.text()` for the terminal, `.html()` for notebooks), `layout_of`
- predictions: `judging(predictions)` (a predict kata's answers, read from the file's text by the
  `predictions` fixture: `judge.guess` reads one, `judge.compare` judges it against what JAX did, every
  wrong one reported at once), in the forms of `checks.forms` (COUNT, FLAG, CALL_NUMBERS, SHAPE,
  DTYPE_NAME, TYPE_STRING, COLLECTIVE, PRIMITIVE...)
"""

from grader.checks.compiles import (COMPILE_EVENT, RECOMPILE_CAUSES, CompileLog, assert_compiles,
                                    assert_one_program, assert_reuses_program, clear_caches, count_compiles,
                                    max_traces)
from grader.checks.core import DOCS, FAILURE_CODES, KataFailure, fail, sentence, short
from grader.checks.hostreads import call_on_device
from grader.checks.devices import (assert_donated, assert_on_devices, assert_replicated, assert_sharding,
                                   assert_split_over_devices, handed_mesh, host_reads, lowered_donations, on_devices,
                                   within_seconds)
from grader.checks.jitted import assert_called_as_traced, assert_jitted
from grader.checks.layout import Layout, Picture, layout_of, picture
from grader.checks.processes import MULTI_PROCESS_DOCS, run_in_processes
from grader.checks.compiled import (CompiledProgram, assert_receives_at_most, assert_runs_on_devices,
                                    compiled_jit, compiled_program, exported_text, per_device_shape)
from grader.checks.loops import (assert_loop_not_fed_steps, assert_loop_returns, assert_loop_stops_on_data, assert_loops_rolled,
                                 assert_no_stacked_copies, assert_not_unrolled, assert_not_unrolled_over_batch)
from grader.checks.programs import (CALLBACKS, COLLECTIVES, MappedCall, Program, StoredValue, assert_computes,
                                    assert_no_callbacks,
                                    assert_not_uses, assert_real_valued, assert_uses, jaxpr_primitives, jaxpr_size, program_of,
                                    traced_jaxpr)
from grader.checks import forms
from grader.runtime.witness import Timeline
from grader.checks.predictions import Predictions, judging
from grader.checks.prng import (assert_draws, assert_keys_not_from_draws, assert_keys_used_once,
                                assert_not_rearranged, drawn_values, no_key_reuse)
from grader.checks.witnessed import Run, Watch, assert_leaves_settings, changed_settings, every_setting
from grader.checks.values import (assert_close, assert_follows, assert_kept_untouched, assert_leaves_setting,
                                  assert_not_mutated, both_ways, assert_sees_global_change, assert_shape_dtype, change_setting,
                                  keep_untouched, read_setting, observe, straight_through_round, swap_function)

__all__ = [
    "CALLBACKS", "COLLECTIVES", "COMPILE_EVENT", "CompileLog", "CompiledProgram", "DOCS", "FAILURE_CODES",
    "KataFailure", "Layout", "MULTI_PROCESS_DOCS", "MappedCall", "Picture", "Program", "RECOMPILE_CAUSES", "StoredValue",
    "Predictions", "Run", "Timeline", "Watch", "assert_leaves_settings", "changed_settings", "every_setting",
    "assert_called_as_traced", "assert_close", "assert_compiles", "assert_computes", "assert_donated", "assert_draws", "assert_follows", "assert_jitted",
    "assert_kept_untouched", "assert_keys_not_from_draws", "assert_keys_used_once", "assert_leaves_setting",
    "assert_loop_not_fed_steps", "assert_loop_returns", "assert_loop_stops_on_data", "assert_one_program", "assert_loops_rolled", "assert_no_callbacks", "assert_no_stacked_copies",
    "assert_not_mutated", "assert_not_rearranged", "assert_not_unrolled", "assert_not_unrolled_over_batch", "assert_not_uses", "assert_real_valued",
    "assert_on_devices", "assert_receives_at_most", "assert_replicated", "assert_reuses_program",
    "assert_runs_on_devices", "assert_sees_global_change", "assert_shape_dtype", "assert_sharding", "both_ways",
    "assert_split_over_devices", "assert_uses", "call_on_device", "handed_mesh", "change_setting", "clear_caches", "compiled_jit", "compiled_program", "count_compiles", "exported_text",
    "drawn_values", "fail", "forms", "host_reads", "jaxpr_primitives", "jaxpr_size", "judging", "keep_untouched", "layout_of", "lowered_donations", "max_traces",
    "no_key_reuse", "observe", "on_devices", "per_device_shape", "picture", "program_of", "read_setting", "run_in_processes",
    "sentence", "short", "straight_through_round", "swap_function", "traced_jaxpr", "within_seconds",
]
