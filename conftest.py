# All options, fixtures and hooks live in one plugin: see grader/plugin.py.
pytest_plugins = ["grader.plugin"]
