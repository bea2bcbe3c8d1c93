"""JAX as every check sees it: 8 virtual CPU devices, 32-bit types, the persistent cache.

Shared by the pytest plugin (a learner's run, the examiner), the subject
process that runs a submission, and the helper processes; it imports
neither pytest nor anything that runs exercise code.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from grader.core.files import cache_home

N_DEVICES = 8
NO_CACHE_ENV = "JAX_KATAS_NO_CACHE"
REAL_DEVICES_ENV = "JAX_KATAS_REAL_DEVICES"
SEALED_CACHE_ENV = "KATAS_SEALED_CACHE"  # set by the grader for a check process: the sealed folder
# Set by the grader for the examiners of a trusted run (the reference solutions): a compilation cache
# only examiners write, apart from the user's, which the subject and a learner's own pytest write.
EXAMINER_CACHE_ENV = "KATAS_EXAMINER_CACHE"
# A folder only the grader's own processes write: the executables its checks compiled (grader.checks.executables).
EXECUTABLES_ENV = "KATAS_EXECUTABLES"


class JaxSetupError(RuntimeError):
    """JAX cannot be given the devices the katas need (it started too early, or flags override them)."""


def cache_dir() -> Path:
    """Per-user folder for JAX's persistent compilation cache (an examiner's own, where it has one)."""
    own = os.environ.get(EXAMINER_CACHE_ENV)
    return Path(own) if own else cache_home() / "jax-katas" / "xla"


def configure_jax(n_devices: int = N_DEVICES, start: bool = True) -> str:
    """Fake `n_devices` CPU devices and enable the compilation cache; returns a header line.

    `start=False` leaves JAX's backend unstarted (`start_backend` starts it later): a process whose JAX
    has started cannot be forked safely (grader.learner.warmwatch forks one per run).
    """
    import jax

    real = os.environ.get(REAL_DEVICES_ENV) == "1" and n_devices == N_DEVICES
    try:
        if not real:
            jax.config.update("jax_platforms", "cpu")
            jax.config.update("jax_num_cpu_devices", n_devices)
        # The katas teach JAX's default 32-bit types; a JAX_ENABLE_X64 in the shell must not change them.
        jax.config.update("jax_enable_x64", False)
    except RuntimeError as error:
        raise JaxSetupError(
            f"JAX was started before the katas could give it {N_DEVICES} CPU devices ({error}). "
            f"Something imported and used JAX before pytest loaded the katas plugin.") from error
    cache = "off"
    if not os.environ.get(NO_CACHE_ENV):
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        jax.config.update("jax_compilation_cache_dir", str(folder))
        # The katas' programs are tiny: cache them all, not only slow compiles.
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
        # JAX otherwise writes the cache's own path into every program's compile options, so a
        # cache copied elsewhere (the warm start, each submission's own) would never be hit.
        jax.config.update("jax_persistent_cache_enable_xla_caches", "none")
        cache = str(folder)
        sealed = os.environ.get(SEALED_CACHE_ENV)
        if sealed and _add_sealed_tier(Path(sealed)):
            cache += f" (and the sealed programs in {sealed})"
    _share_one_mlir_context()
    if not start:
        return f"jax {jax.__version__}: devices start in each run, compilation cache {cache}"
    count = start_backend(n_devices)
    return f"jax {jax.__version__}: {count} {jax.default_backend()} devices, compilation cache {cache}"


def start_backend(n_devices: int = N_DEVICES) -> int:
    """Start JAX's backend (the device count is fixed from then on) and check it; the device count."""
    import jax

    real = os.environ.get(REAL_DEVICES_ENV) == "1" and n_devices == N_DEVICES
    count = jax.device_count()
    if not real and count != n_devices:
        raise JaxSetupError(
            f"the katas need {n_devices} virtual CPU devices but JAX has {count}. Unset XLA_FLAGS "
            f"/ JAX_PLATFORMS overrides, or set {REAL_DEVICES_ENV}=1 to use real devices.")
    return count


def _share_one_mlir_context() -> None:
    """Lower every program in one MLIR context per thread instead of a new one each time.

    JAX makes a fresh context for each program it lowers, loading every
    dialect into it (5 ms): a check process lowers hundreds of small
    programs, and the contexts cost a sixth of its time and half its memory.
    The programs are the same; only where MLIR keeps them changes. (A private
    JAX hook: where it moved, JAX keeps making its own.)
    """
    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return
    make = getattr(mlir, "make_ir_context", None)
    if make is None or getattr(make, "katas_shared", False):
        return
    per_thread = threading.local()

    def shared_context() -> Any:
        if getattr(per_thread, "context", None) is None:
            per_thread.context = make()
        return per_thread.context

    shared_context.katas_shared = True
    shared_context.original = make
    mlir.make_ir_context = shared_context


class _SealedTier:
    """JAX's own cache, and behind it a read-only folder of programs that is opened by key only.

    The grader's sandbox shows a submission the warm programs (grader.engine.warm) in
    a folder it may not list: a program is found only by its key, a hash of
    the exact program, so only code that compiles that very program gets it.
    What this process compiles goes to its own cache, never there.
    """

    def __init__(self, own: Any, sealed: Path) -> None:
        self._own, self._sealed = own, sealed
        self._path = getattr(own, "_path", None)  # JAX logs it on a reset

    def get(self, key: str) -> bytes | None:
        found = self._own.get(key)
        if found is None:
            try:
                found = (self._sealed / f"{key}-cache").read_bytes()
            except OSError:  # not there (or not readable): a miss
                return None
        return found

    def put(self, key: str, value: bytes) -> None:
        self._own.put(key, value)


def _add_sealed_tier(sealed: Path) -> bool:
    """Put the sealed programs behind JAX's persistent cache (a private JAX hook: False if it moved)."""
    try:
        from jax._src import compilation_cache
    except ImportError:
        return False
    if not hasattr(compilation_cache, "_initialize_cache") or not hasattr(compilation_cache, "_cache"):
        return False
    compilation_cache._initialize_cache()
    if compilation_cache._cache is None:
        return False
    compilation_cache._cache = _SealedTier(compilation_cache._cache, sealed)
    return True


def settle_after_start() -> None:
    """Set aside from the garbage collector what start-up made (JAX, the grader, the checks: some
    200,000 objects that live as long as the process), and collect young objects less often. Its
    passes walked them all again and again: 0.6 s of the 15 s the whole course's checks take."""
    import gc

    gc.freeze()
    gc.set_threshold(5000, 10, 10)


def import_lowering() -> None:
    """Import the MLIR dialects JAX loads at its first lowering: in a process that forks checks, once
    there rather than in every fork."""
    import importlib

    for name in ("jaxlib.mlir.dialects.builtin", "jaxlib.mlir.dialects.mhlo", "jaxlib.mlir.dialects.stablehlo",
                 "jaxlib.mlir.dialects.func"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # moved in another JAX: the first lowering imports what it needs
