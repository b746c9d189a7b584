"""Reading the kit's data: where it lives, the strict YAML loader, located problems and the spec.

The bottom layer: both the reference engine and the conformance kit import it, and it imports neither.
"""
