#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image
# (written by `grader gradescope-bundle`). It installs Python 3.11+ if the
# image lacks it, then the grader with the exact versions in constraints.txt
# (inside the range pyproject.toml allows), and creates the unprivileged user
# the checks run as.
set -euo pipefail
ROOT="${KATAS_AUTOGRADER_ROOT:-/autograder}"  # another root lets you try the bundle locally
SOURCE="$ROOT/source"

python=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3.11 python3.11-venv
  python=python3.11
fi
if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$(basename "$python")-venv"
fi

# bubblewrap walls each check process in (its own PID, network and mount namespaces): without it
# the grader falls back to process isolation and says so in every result.
if [ "$(id -u)" = 0 ] && ! command -v bwrap >/dev/null; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap || echo "warning: bubblewrap not installed"
fi

cd "$SOURCE/katas"  # never the submission folder: `python -m` imports from the current folder
"$python" -I -m venv "$SOURCE/venv"
"$SOURCE/venv/bin/python" -I -m pip install --quiet --upgrade pip
"$SOURCE/venv/bin/python" -I -m pip install --quiet -c constraints.txt -e "$SOURCE/katas"

if [ "$(id -u)" = 0 ]; then
  id katas-sandbox >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin katas-sandbox
  # The check processes run as katas-sandbox from this Python and grader: let it read them.
  chmod o+x "$ROOT" "$SOURCE"
  chmod -R o+rX "$SOURCE/katas" "$SOURCE/venv"
  runuser -u katas-sandbox -- "$SOURCE/venv/bin/python" -I -c 'import grader.plugin, jax, pytest_timeout'
fi
"$SOURCE/venv/bin/grader" doctor
echo "JAX Katas autograder ready: $("$SOURCE/venv/bin/python" -I -c 'import jax; print("jax", jax.__version__)')"
