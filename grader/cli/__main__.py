"""`python -m grader.cli`: the `grader` command."""

import sys

from grader.cli import main

sys.exit(main())
