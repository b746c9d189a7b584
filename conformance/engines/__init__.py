"""Engines, at arm's length: the protocol's messages, an engine process with its own group and bounded
output, the protocol adapter, the in-process adapter for the reference, and a Python engine served
over the protocol.
"""
