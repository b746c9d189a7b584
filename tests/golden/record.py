"""Record the runs tests/test_golden_run.py compares with: ``python tests/golden/record.py``.

Re-record only when a change to the scenarios or the report formats is meant to change what a
run prints and writes; the diff of the recorded files is then the review of that change.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from golden_run import RUNS, recorded_run  # noqa: E402


def main() -> int:
    for name in RUNS:
        folder = HERE / name
        folder.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory() as reports:
            files = recorded_run(name, Path(reports))
        for file, text in files.items():
            (folder / file).write_text(text, encoding="utf-8")
        print(f"recorded {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
