"""`python -m engine`: simulate games between built-in bots, replay records, a demo league."""

import argparse
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    parser.add_subparsers(dest="command", required=True).add_parser("demo")
    parser.parse_args(argv)
    print("The engine demo arrives with the first title.", file=sys.stderr)
    return 0
