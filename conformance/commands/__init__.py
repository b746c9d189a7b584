"""The commands of ``trickspec``, one module each (conformance/cli.py describes their options and runs them)."""
