"""Living documentation built from spec/, and the HTML conformance report."""
