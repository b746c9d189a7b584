"""Text that enters the kit from outside, made safe: escaped and size-capped where it enters
(``untrusted``), and the column of a path in a line of JSON for its problems (``json_positions``).
"""
