#!/usr/bin/env python
"""Django's command-line utility for Meeple Arena."""

import os
import sys
from pathlib import Path

# platform/ is a plain folder holding the `arena` package (see docs/architecture.md).
sys.path.insert(0, str(Path(__file__).resolve().parent / "platform"))

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
