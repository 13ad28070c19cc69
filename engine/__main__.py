"""Command line of the engine: `python -m engine --help`."""

from engine.cli import main

raise SystemExit(main())
