"""The expectations file, which lives with the contract (conformance.contract.expectations); kept here by name."""

from conformance.contract.expectations import Expectations, fuzz_rules, json_str, load_expectations, write_expectations

__all__ = ["Expectations", "fuzz_rules", "json_str", "load_expectations", "write_expectations"]
