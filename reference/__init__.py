"""The trickspec reference engine: plays any variant of spec/ from its YAML alone."""

from reference.engine import Applied, Engine, compile_rules
from reference.errors import Rejected, SetupError, VariantError

__all__ = ["Applied", "Engine", "Rejected", "SetupError", "VariantError", "compile_rules"]
