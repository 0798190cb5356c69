"""The judge: a scenario on an adapter against a contract (runner: the one entry; steps: each step as
written; declared: re-read under declared deviations; explain: which declaration a failure asks for),
state comparison, reports and report comparison. It reads conformance.contract; nothing there reads it."""
