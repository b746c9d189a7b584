"""Traces: an engine checked by the games it played (``trickspec check-trace``).

A trace is a JSON Lines file of games, each with its deal as the engine dealt it, every action and
what the engine reported (schemas/trace.schema.json). ``reading`` streams and checks the files,
``judging`` replays a game through the reference and compares, ``checking`` runs the files (shards,
worker processes) into one run log, ``summary`` says it on the terminal.
"""
