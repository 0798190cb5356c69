"""pytest plugin entry point (registered as ``crescent`` through ``pytest11``).

Inert unless one of its options is given; see conformance/pytest_plugin.py once written.
"""
