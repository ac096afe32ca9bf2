"""The `typeinf` command line.

Exit codes: 0 success, 1 a type error, 2 a usage error or input that does not parse.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import iterir
import typeinf
from iterir.files import read_text
from iterir.jsontext import dumps, loads
from typeinf.offsets import OffsetProviderFormatError, load_offset_provider

EXIT_OK, EXIT_TYPE_ERROR, EXIT_USAGE = 0, 1, 2


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
    infer = commands.add_parser(
        "infer",
        help="print the most general type of an IR program",
        description="Infer the type of an IR program (an expression, or `{…}` for a fencil) and "
        "print it in the notation of GT4Py. Exit 0 on success, 1 on a type error (the message on "
        "standard error), 2 on a usage or parse error.",
    )
    infer.add_argument("file", help="an .itir or .json file, or - for standard input")
    infer.add_argument("--locations", action="store_true",
                       help="print iterator locations (GT4Py 1.0.3's located notation)")  # fmt: skip
    infer.add_argument("--offset-provider", metavar="PROVIDER.json",
                       help="offset tags as Dimension or Connectivity (TYPES.md section 7)")  # fmt: skip
    return parser


def _offset_provider(path: str | None) -> dict | None:
    if path is None:
        return None
    data = loads(read_text(path), path)
    try:
        return load_offset_provider(data)
    except OffsetProviderFormatError as error:
        raise iterir.ParseError(str(error), path) from None


def _infer(args: argparse.Namespace) -> tuple[int, str]:
    try:
        node = iterir.load(args.file)
        provider = _offset_provider(args.offset_provider)
    except iterir.ParseError as error:
        return EXIT_USAGE, str(error)
    try:
        type_ = typeinf.infer(node, provider)
    except typeinf.TypeInferenceError as error:
        return EXIT_TYPE_ERROR, str(error)
    return EXIT_OK, typeinf.pformat(type_, locations=args.locations)


def _write(text: str, stream: object) -> None:
    try:
        stream.write(text + "\n")  # type: ignore[attr-defined]
        stream.flush()  # type: ignore[attr-defined]
    except BrokenPipeError:  # `typeinf … | head` is not an error
        sys.stderr.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "infer":
        code, text = _infer(args)
        _write(text, sys.stdout if code == EXIT_OK else sys.stderr)
        return code
    try:
        node = iterir.load(args.file)
    except iterir.ParseError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    _write(iterir.pformat(node) if args.to == "text" else dumps(iterir.to_json(node)), sys.stdout)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
