"""The `typeinf` command line.

Exit codes: 0 success, 2 a usage error or input that does not parse.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import iterir
from iterir.jsontext import dumps

EXIT_OK, EXIT_USAGE = 0, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="typeinf",
        description="Type inference for GT4Py's iterator IR (ITIR).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    fmt = commands.add_parser(
        "format",
        help="read IR (text or JSON) and print it back",
        description="Read an IR program (.itir text or .json snapshot; - for standard input) "
        "and print it in the ITIR text syntax, or as JSON with --to json.",
    )
    fmt.add_argument("file", help="an .itir or .json file, or - for standard input")
    fmt.add_argument("--to", choices=("text", "json"), default="text", help="output format")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        node = iterir.load(args.file)
    except iterir.ParseError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    text = iterir.pformat(node) if args.to == "text" else dumps(iterir.to_json(node))
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `typeinf format big.itir | head` is not an error
        sys.stderr.close()
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
