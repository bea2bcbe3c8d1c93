# All options, fixtures and hooks live in one plugin: see grader/plugin/.
pytest_plugins = ["grader.plugin"]
