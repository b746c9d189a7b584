"""The trickspec reference engine: plays any variant of spec/ from its YAML alone."""

from reference.engine import Applied, Engine, compile_rules
from reference.errors import SetupError, VariantError
from reference.refusals import Refusal

__all__ = ["Applied", "Engine", "Refusal", "SetupError", "VariantError", "compile_rules"]
