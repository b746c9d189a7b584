"""The suite and the kit's data: JSON Schemas, scenario files loaded and compiled into steps, how each
``expect`` key is compared, and the cross-file checks of variants, clauses and references.
"""
