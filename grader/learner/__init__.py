"""The learner's tools: next, watch, hint, progress, solution, reset, notebooks."""
