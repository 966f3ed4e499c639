"""docs/guide.md stays true: its troubleshooting section is what the tests
that raise each error raise today."""

import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).parents[2] / "docs" / "tools" / "troubleshooting.py"


def test_troubleshooting_section_matches_the_tests():
    result = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:] + result.stdout[-3000:]
