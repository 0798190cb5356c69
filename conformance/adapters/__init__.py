"""Adapters: the reference engine in process, any program over stdio, and choosing one."""
