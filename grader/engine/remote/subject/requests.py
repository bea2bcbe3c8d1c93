"""The requests the subject serves: load, get and set names, call, trace, observe, run, swap, settings,
pointers, processes."""

from __future__ import annotations

import os
import sys
import types
from typing import Any

from grader.engine.remote import codec
from grader.engine.remote.codec import WireError
from grader.engine.remote.protocol import SETTINGS
from grader.engine.remote.subject.sealing import change_refused
from grader.engine.remote.subject.standins import unflatten_one, describe


class Requests:
    """The request handlers of a Server."""

    # --- the requests ----------------------------------------------------------------------------

    def op_hello(self, request: dict) -> dict:
        import jax

        return {"version": codec.VERSION, "devices": jax.device_count(), "pid": os.getpid()}

    def op_load(self, request: dict) -> Any:
        from grader.checks.core import KataFailure
        from grader.runtime.loading import load_exercise

        refuse_if_changed = self.refuse_if_changed  # bound before the import runs the submission's code
        self.reset()
        self._restore_settings()
        self._restore_environment()
        if "chex" in sys.modules:  # chex counts traces per wrapped function, across checks: start afresh
            sys.modules["chex"].clear_trace_counter()
        path = (self.submission / str(request["path"])).resolve()
        if not path.is_relative_to(self.submission):
            raise WireError("an exercise path outside the submission")
        from grader.engine.remote import audit

        sys.audit(audit.SUBMISSION_FILE, str(path))  # to the hook's private copy, which only adds
        try:
            with self._settings(request.get("settings"), self.settings):
                loaded = load_exercise(path, str(request["label"]))
        except KataFailure as failure:
            refused = change_refused(failure.__cause__)  # a sealed class's refusal, met while importing
            if refused:
                audit.refuse_now(refused)
            return {"failure": [failure.code, str(failure)]}
        finally:
            refuse_if_changed()  # before the server is used again
        self.module, self.module_path = loaded.module, path
        module = self.handle(loaded.module)
        functions = {name: describe(value) for name, value in vars(loaded.module).items()  # may run its code
                     if not name.startswith("__") and callable(value) and not isinstance(value, type)}
        return {"module": module, "functions": functions}

    def _restore_environment(self) -> None:
        """The process's environment variables as they were before any submission code ran (kept at the
        first load): a count kept there from one load to the next would tell an answer which check of
        its file is running, and so when to use the mechanism a later check looks for."""
        if self.pristine_environment is None:
            self.pristine_environment = dict(os.environ)
            return
        pristine, now = self.pristine_environment, dict(os.environ)
        for name in now.keys() - pristine.keys():
            del os.environ[name]
        for name, value in pristine.items():
            if now.get(name) != value:
                os.environ[name] = value

    def _restore_settings(self) -> None:
        """Every JAX setting (each config State and each plain Flag) as it was before any submission
        code ran (kept at the first load), so that each check starts from JAX's own settings: one the
        answer left changed in an earlier check (a sibling of a setting the examiner sends, such as
        jax_explicit_x64_dtypes; a Flag such as jax_disable_most_optimizations) is not the state a
        later check starts from. The settings the examiner sends are then set from its own. Read and
        written through the states bound before the submission ran (`BoundSettings`)."""
        settings = self.settings
        if self.pristine_settings is None:  # the first load: nothing of the submission has run yet
            self.pristine_settings = {name: (get_global(), get_local())
                                      for name, (get_local, get_global, _) in settings.readers.items()}
        for name, (global_value, local_value) in self.pristine_settings.items():
            get_local, get_global, set_global = settings.readers[name]
            if get_global() != global_value:
                set_global(global_value)
            if get_local() is not local_value and get_local() != local_value:
                state = get_local.__self__
                state.set_local(local_value)
                hook = getattr(state, "_update_thread_local_hook", None)
                if hook is not None:
                    hook(None if local_value is settings.unset else local_value)

    def op_reset(self, request: dict) -> None:
        self.reset()

    def op_getattr(self, request: dict) -> Any:
        obj, name = request["obj"], str(request["name"])
        if name == "__dict__" and isinstance(obj, types.ModuleType):  # vars(module): its own names only
            return {k: v for k, v in vars(obj).items() if not (k.startswith("__") and k.endswith("__"))}
        return getattr(obj, name)

    def op_setattr(self, request: dict) -> None:
        setattr(request["obj"], str(request["name"]), request["value"])

    def op_call(self, request: dict) -> Any:
        import jax

        with self._settings(request.get("settings"), self.settings), self._mesh(request.get("mesh")):
            try:
                return request["fn"](*request.get("args", ()), **request.get("kwargs", {}))
            finally:
                jax.effects_barrier()  # printed text of this call arrives before the reply

    def op_run(self, request: dict) -> Any:
        """A function of the checks library (or a check's own), run here for what it sets up or saw."""
        import jax

        fn = request["fn"]
        with self._settings(request.get("settings"), self.settings):
            out = fn(*request.get("args", ()))
        if fn is jax.clear_caches:  # `checks.clear_caches`: JAX's count of compiles starts again from 0
            self.after_grader_clear()
        return out

    def op_observe(self, request: dict) -> Any:
        from grader.runtime.loading import ExerciseModule

        exercise = ExerciseModule(self.module, str(request.get("label", "")))
        with self._settings(request.get("settings"), self.settings), self._mesh(request.get("mesh")):
            return request["probe"](exercise, *request.get("args", ()), **request.get("kwargs", {}))

    def op_trace(self, request: dict) -> dict:
        """Trace a callable for abstract values: its jaxpr and the structure of its output."""
        import jax
        from jax._src import api_util, core
        from jax._src import linear_util as lu
        from jax._src.interpreters import partial_eval as pe

        avals = list(request["avals"])
        out_tree: list[Any] = []

        def flat(*tracers: Any) -> list:
            decoded = self.decode(request["call"], placeholders=list(tracers))
            if "rebuild" in request:  # one of the submission's pytree objects, made from traced children
                out = unflatten_one(request["rebuild"]["type"], request["rebuild"]["aux"], decoded[2])
                if "attribute" in request:
                    out = getattr(out, str(request["attribute"]))
            else:
                args, kwargs = decoded
                out = request["fn"](*args, **kwargs)
            leaves, tree = jax.tree.flatten(out)
            # Only the tracers are the program's outputs; any other leaf (a string, a constant array)
            # comes back as it is, as it would to a caller tracing in the same process.
            traced = [i for i, leaf in enumerate(leaves) if isinstance(leaf, core.Tracer)]
            out_tree.append((tree, traced, [None if i in traced else leaf for i, leaf in enumerate(leaves)]))
            return [leaves[i] for i in traced]

        debug = api_util.debug_info("examiner trace", flat, tuple(avals), {})
        axis_env = [(name, int(size)) for name, size in request.get("axis_env", [])]
        with self._settings(request.get("settings"), self.settings), self._mesh(request.get("mesh")), \
                core.extend_axis_env_nd(axis_env), self._abstract_mesh(request.get("abstract_mesh")):
            jaxpr, _, consts = pe.trace_to_jaxpr_dynamic(lu.wrap_init(flat, debug_info=debug), avals)
        tree, traced, leaves = out_tree[0]
        return {"jaxpr": core.ClosedJaxpr(jaxpr, consts), "out_tree": tree, "traced": traced, "leaves": leaves}

    def op_rebuild(self, request: dict) -> Any:
        """An object of one of the submission's pytree classes, made by its own unflatten."""
        return unflatten_one(request["type"], request["aux"], request["children"])

    def op_swap(self, request: dict) -> dict:
        from grader.checks.values import swap_function

        swaps = self.swaps  # bound first: reading the module's name may run its `__getattr__`
        manager = swap_function(request["module"], str(request["name"]), request["replacement"])
        original = manager.__enter__()
        token = len(swaps) + 1
        swaps[token] = manager
        return {"token": token, "original": original}

    def op_unswap(self, request: dict) -> None:
        self._unswap(int(request["token"]))

    def _unswap(self, token: int) -> None:
        manager = self.swaps.pop(token, None)
        if manager is not None:
            manager.__exit__(None, None, None)

    def op_settings(self, request: dict) -> dict:
        """The settings' values, read from their own states (see BoundSettings), never `jax.config`'s
        properties: a class attribute any code may replace."""
        settings = self.settings
        for name, value in (request.get("set") or {}).items():
            if name in SETTINGS and name in settings.states:
                settings.set_global(str(name), value)
        return {str(name): settings.value(str(name)) for name in request["names"]}

    def op_pointers(self, request: dict) -> list:
        return [[shard.data.unsafe_buffer_pointer() for shard in array.addressable_shards]
                for array in request["arrays"]]

    def op_processes(self, request: dict) -> Any:
        from grader.checks.processes import delivered, launch

        if self.module_path is None:
            raise WireError("no exercise is loaded")
        # Launched afresh each time: the examiner remembers the answer, where the exercise cannot fill it in.
        return delivered(launch(str(self.module_path), str(request["function"]), what=str(request["what"]),
                                **request.get("options", {})))
