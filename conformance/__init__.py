"""The Crescent conformance runner: scenarios, adapters, the pytest plugin and reports."""

__version__ = "0.2.0"
