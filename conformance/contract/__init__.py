"""The contract room: what an implementation declares (conformance.contract.contract) and the
known differences of an expectations file (conformance.contract.expectations). Judging
(conformance.judging) reads it; it imports nothing of judging."""

from conformance.contract.contract import DEALING_AREAS, Contract, from_report
from conformance.contract.expectations import Expectations, load_expectations

__all__ = ["DEALING_AREAS", "Contract", "Expectations", "from_report", "load_expectations"]
