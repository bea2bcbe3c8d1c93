"""JAX Katas: the check helpers, the pytest plugin and the `grader` command."""

from pathlib import Path

__version__ = "0.1.0"

#: The repository this package was installed from (`pip install -e .`): its
#: `exercises/` holds the pristine checks and the manifest.
REPO_ROOT = Path(__file__).resolve().parent.parent
