"""The two shapes every layer passes around: a JSON object, and a path into one."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]
JsonPath = tuple[str | int, ...]
