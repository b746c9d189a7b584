"""How strong the suite is and how well an engine speaks: clause and field coverage, mutation testing
(``selfcheck``) with its neighbouring variants, and the protocol smoke test.
"""
