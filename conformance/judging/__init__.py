"""Judging: running a scenario on an adapter, comparing states, expectations, reports."""
