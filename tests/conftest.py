"""Plugins for the kit's own tests: pytester, to run pytest (and the crescent plugin) inside a test."""

pytest_plugins = ["pytester"]
