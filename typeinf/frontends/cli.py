"""The `typeinf` command line.

Exit codes: 0 success, 1 type errors (or snapshots that differ), 2 a usage error, input that
does not parse or cannot be read, or output that cannot be written, 3 an internal error.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import iterir
from iterir.errors import excerpt, source_line
from iterir.files import read_text, write_text
from iterir.jsontext import dumps
from iterir.trojan import bidi_warnings
from typeinf import __version__
from typeinf.core.diagnostics import (
    Source,
    more_reasons,
    reason_text,
    render,
    render_warning,
    source_of,
)
from typeinf.core.notation import to_ascii
from typeinf.core.offsets import read_offsets
from typeinf.core.terms import Cell, FencilType
from typeinf.dialect import Dialect
from typeinf.fencil.infer import Solved
from typeinf.fencil.notation import FencilPrinter, pformat, pformat_lines
from typeinf.frontends import gtir_report, json_report
from typeinf.frontends.docs_pages import pages
from typeinf.frontends.explain import innermost_at, why, why_gtir
from typeinf.frontends.snapshots import IR_SUFFIXES, programs, sibling_provider, take
from typeinf.frontends.streams import OutputError, guarded
from typeinf.gtir import infer as gtir_infer
from typeinf.gtir.infer import GtirInferred, GtirSolved
from typeinf.gtir.notation import pformat_gtir, to_ascii_gtir
from typeinf.infer import AllowFree
from typeinf.route import (
    Routed,
    for_node,
    read_provider,
    solve_either,
)

EXIT_OK, EXIT_TYPE_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: The status of a command whose reader went away (a broken pipe): a shell's for SIGPIPE.
EXIT_READER_GONE = 128 + 13

_EPILOG = """\
examples:
  typeinf infer examples/laplacian.itir
  typeinf infer examples/nabla.itir --verbose --defs
  typeinf infer examples/nabla.itir --offset-provider examples/nabla.offsets.json --all
  typeinf explain examples/laplacian.itir:4:13
  typeinf snapshot check examples
  typeinf docs notation

`typeinf docs` lists the documentation pages: the notation of types, the typing rules, offset
providers and the builtins' signatures.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="typeinf",
        description="Type inference for GT4Py's iterator IR (ITIR).",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"typeinf {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    infer = commands.add_parser(
        "infer",
        help="print the most general type of IR programs",
        description="Infer the type of IR programs (an expression, or `{…}` for a fencil) and print it "
        "in GT4Py's notation. Every type error is reported, with its location and the reasons "
        "behind it. Exit 0 on success, 1 on type errors, 2 on a usage or parse error, 3 on an "
        "internal error (a bug of ours). A FILE's offset provider is NAME.offsets.json beside "
        "NAME.itir or NAME.json, if there is one, unless --offset-provider names another.",
    )
    infer.add_argument(
        "files", nargs="+", metavar="FILE", help="an .itir or .json file, or - for standard input"
    )
    shown = infer.add_mutually_exclusive_group()
    shown.add_argument(
        "--all",
        action="store_true",
        help="print every node with its location and type, in pre-order",
    )
    shown.add_argument(
        "--defs", action="store_true", help="print only the function definitions' types"
    )
    shown.add_argument(
        "--one-line",
        action="store_true",
        help="print a fencil's type on one line, numbered as a whole (GT4Py's form), instead of "
        "one line per definition and one for the fencil",
    )
    infer.add_argument(
        "--shared-names",
        action="store_true",
        help="with --all: number the variables over the whole program, so that a node's type "
        "can be related to its parent's (one `where` line at the end)",
    )
    infer.add_argument(
        "--json",
        action="store_true",
        help="print results and diagnostics as JSON (schema: typeinf docs json-output)",
    )
    infer.add_argument(
        "--max-errors", type=int, metavar="N", help="report at most N type errors per file"
    )
    _common(infer)

    explain = commands.add_parser(
        "explain",
        help="the type of the expression at a position, and why",
        description="Print the type of the innermost node at FILE:LINE:COL (or FILE --at LINE:COL) "
        "and the constraints that gave it that type, each with its location. FILE is in the text "
        "syntax (`typeinf format FILE.json --to text > FILE.itir` converts JSON); its offset provider is "
        "found as for `infer`.",
    )
    explain.add_argument("target", metavar="FILE:LINE:COL", help="a position in an .itir file")
    explain.add_argument("--at", metavar="LINE:COL", help="the position, when FILE is given alone")
    _common(explain)

    fmt = commands.add_parser(
        "format",
        help="read IR (text or JSON) and print it back",
        description="Read an IR program (.itir text or .json snapshot; - for standard input) and print "
        "it in the ITIR text syntax, or as JSON with --to json.",
    )
    fmt.add_argument("file", help="an .itir or .json file, or - for standard input")
    fmt.add_argument("--to", choices=("text", "json"), default="text", help="output format")

    snapshot = commands.add_parser(
        "snapshot",
        help="check or update the expected types kept beside IR files",
        description="Every IR file NAME.itir or NAME.json under DIR (with its offset provider "
        "NAME.offsets.json, if any) has its expected types in NAME.types. `check` prints a unified "
        "diff for each file whose types changed, and a missing expected file, and exits 1; "
        "`update` rewrites the expected files and says which changed; it leaves alone, and names, "
        "those of programs with type errors unless --accept-errors.",
    )
    snapshot.add_argument("action", choices=("check", "update"))
    snapshot.add_argument("dir", metavar="DIR", help="a folder of IR files")
    snapshot.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour the diffs"
    )
    snapshot.add_argument(
        "--accept-errors",
        action="store_true",
        help="update: also record programs' type errors as their expected output (without it, "
        "the expected file of a program with type errors is left as it was)",
    )

    docs = commands.add_parser(
        "docs",
        help="list the documentation pages, or print one",
        description="Without PAGE, list the documentation pages (name and title); with PAGE, print "
        "that page (Markdown).",
    )
    docs.add_argument(
        "page", nargs="?", metavar="PAGE", help="a page's name, e.g. notation or offset-providers"
    )
    for command in commands.choices.values():
        command.formatter_class = _WholeWords
    return parser


class _WholeWords(argparse.HelpFormatter):
    """Wraps help text without breaking a word at a hyphen, so that `--offset-provider` and
    `typeinf docs offset-providers` stay whole, to be copied."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )


def _common(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--locations",
        action="store_true",
        help="print iterator locations (GT4Py 1.0.3's located notation: typeinf docs notation)",
    )
    command.add_argument(
        "--ascii",
        action="store_true",
        help="print types in their ASCII spelling (->, T0, ^1, ^c, ^s; GTIR's KDim^v, <=: typeinf docs notation, gtir)",
    )
    command.add_argument(
        "--offset-provider",
        metavar="PROVIDER.json",
        help="offset tags as Dimension or Connectivity, instead of the provider beside "
        "FILE (typeinf docs offset-providers)",
    )
    command.add_argument(
        "--verbose", action="store_true", help="say which offset provider each FILE is typed with"
    )
    command.add_argument(
        "--allow-free",
        type=_names,
        action="extend",
        default=[],
        metavar="NAME[,NAME…]",
        help="type these free names as unknowns instead of reporting them as not defined "
        "(repeatable; the fencil IR's: GTIR has no unknowns, a free name there needs its type; "
        "typeinf docs rules)",
    )
    command.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the diagnostics (auto: only on a terminal)",
    )


def _names(text: str) -> list[str]:
    """The names of one --allow-free: comma-separated, none empty."""
    names = text.split(",")
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected NAME or NAME,NAME,…, not {text!r}")
    return names


@dataclass
class _Program:
    node: iterir.Node
    source: Source
    text: str


def _filename(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _read(path: str) -> _Program:
    """A program FILE the user named: a pipe (`<(…)`) or a device is read too, up to the limit."""
    text = read_text(path, streams=True)
    node = iterir.loads_ir(text, _filename(path))
    return _Program(node, source_of(_filename(path), text, node), text)


def _provider_path(path: str, args: argparse.Namespace, err: TextIO) -> str | None:
    """The offset provider FILE is typed with: --offset-provider, else `NAME.offsets.json` beside
    it, as for its snapshot (standard input has nothing beside it); --verbose says which."""
    found: str | None = args.offset_provider
    beside: Path | None = None
    if found is None and path != "-":
        beside = sibling_provider(Path(path))
        found = str(beside) if os.path.lexists(beside) else None  # a dangling link is named
    if args.verbose:
        if found is not None:
            note = f"offset provider {found}"
        elif beside is not None:
            note = f"no offset provider ({beside} does not exist)"
        else:
            note = (
                "no offset provider (standard input has no file beside it: use --offset-provider)"
            )
        err.write(f"typeinf: {_filename(path)}: {note}\n")
    return found


def _color(choice: str, stream: TextIO) -> bool:
    return choice == "always" or (choice == "auto" and stream.isatty())


# -- infer ----------------------------------------------------------------------------------------
def _infer(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.max_errors is not None and args.max_errors < 1:
        err.write("typeinf: error: --max-errors must be at least 1\n")
        return EXIT_USAGE
    if args.shared_names and not args.all:
        err.write("typeinf: error: --shared-names numbers the types of --all: give both\n")
        return EXIT_USAGE
    try:  # read once, first: one that is not JSON stops before any file
        given = read_offsets(file=args.offset_provider) if args.offset_provider else None
    except iterir.ParseError as error:
        err.write(f"{error}\n")
        return EXIT_USAGE
    code = EXIT_OK
    reports: list[json_report.Report] = []
    for path in args.files:
        provider_path = _provider_path(path, args, err)
        free = frozenset(args.allow_free) or False
        try:
            program = _read(path)
            provider = (
                for_node(program.node, given)
                if given is not None
                else read_provider(program.node, provider_path)
            )
        except iterir.ParseError as error:
            code = EXIT_USAGE
            reports.append(
                {
                    "file": path,
                    "type": None,
                    "diagnostics": [json_report.parse_error(error, _filename(path))],
                }
            )
            if not args.json:
                err.write(f"{error}\n")
            continue
        checked, more = _checked(program, provider, args.max_errors, free)
        warnings = bidi_warnings(program.node, program.text)
        if checked.errors:
            code = max(code, EXIT_TYPE_ERROR)
        if args.json:
            reports.append(
                json_report.report(
                    path,
                    program.node,
                    program.source,
                    checked,
                    every_node=args.all,
                    locations=args.locations,
                )
            )
            reports[-1]["diagnostics"][:0] = [
                json_report.warning(w, program.source) for w in warnings
            ]
        else:
            for warning in warnings:
                err.write(render_warning(warning, program.source, _color(args.color, err)) + "\n")
            _print_report(program, checked, more, args, len(args.files) > 1, out, err)
    if args.json:
        out.write(dumps({"files": reports}, indent=1) + "\n")
    return code


def _checked(
    program: _Program, routed: Routed, limit: int | None, free: AllowFree
) -> tuple[Solved | GtirSolved, bool]:
    """`solve_either` keeping at most `limit` errors, and whether there are more: it is asked for
    one more than it keeps, as counting them all would check the whole program, which
    --max-errors spares. `free`: the names allowed to be free (--allow-free)."""
    checked = solve_either(program.node, routed, free, None if limit is None else limit + 1)
    if limit is None or len(checked.errors) <= limit:
        return checked, False
    del checked.errors[limit:]
    return checked, True


def _print_report(
    program: _Program,
    checked: Solved | GtirSolved,
    more: bool,
    args: argparse.Namespace,
    many: bool,
    out: TextIO,
    err: TextIO,
) -> None:
    color = _color(args.color, err)
    for error in checked.errors:
        err.write(render(error, program.source, color) + "\n")
    if checked.errors:
        count = len(checked.errors)
        if more:
            shown = f"{count} of at least {count + 1} type errors shown (--max-errors {count})"
        else:
            shown = f"{count} type error{'' if count == 1 else 's'}"
        err.write(f"{program.source.filename}: {shown}\n")
        return
    prefix = f"{program.source.filename}: " if many else ""
    spell = to_ascii if args.ascii else str
    if isinstance(checked, GtirSolved):
        _print_gtir(program, checked, args, prefix, out, err)
        return
    if args.all:
        nodes = [n for n in iterir.walk(program.node) if id(n) in checked.types]
        types = [checked.types[id(n)] for n in nodes]
        if args.shared_names:  # one numbering, so one `where` clause, on a line of its own
            printer = FencilPrinter(types, args.locations)
            texts, where = [printer.format(t) for t in types], printer.where().strip()
        else:
            texts, where = [pformat(t, args.locations) for t in types], ""
        for node, text in zip(nodes, texts, strict=True):
            out.write(
                f"{program.source.where(node)}: {iterir.pformat_short(node, 40)} :: {spell(text)}\n"
            )
        if where:
            out.write(spell(where) + "\n")
    elif args.defs:
        definitions = json_report.definitions(checked.type)
        for definition in definitions:
            out.write(prefix + spell(pformat(definition, args.locations)) + "\n")
        if not definitions:
            kind = (
                f"fencil `{checked.type.name}` defines none"
                if isinstance(checked.type, FencilType)
                else "an expression, not a fencil"
            )
            err.write(f"{program.source.filename}: no function definitions ({kind})\n")
    else:
        assert checked.type is not None  # no errors (see above): `check` gave the type
        lines = (
            [pformat(checked.type, args.locations)]
            if args.one_line
            else pformat_lines(checked.type, args.locations)
        )
        out.write("".join(prefix + spell(line) + "\n" for line in lines))


def _print_gtir(
    program: _Program,
    checked: GtirSolved,
    args: argparse.Namespace,
    prefix: str,
    out: TextIO,
    err: TextIO,
) -> None:
    """A GTIR program's types (docs/gtir.md, "Typing"), as `_print_report` prints a fencil's."""
    spell = to_ascii_gtir if args.ascii else str
    if args.all:
        if args.shared_names:  # one numbering, so one `where` clause, on a line of its own
            texts, shared = gtir_report.every_node_shared(checked)
        else:
            texts = [(n, str(v)) for n, v in gtir_report.every_node(checked)]
            shared = ""
        for node, text in texts:
            where = program.source.where(node)
            out.write(f"{where}: {iterir.pformat_short(node, 40)} :: {spell(text)}\n")
        if shared:
            out.write(spell(shared) + "\n")
        return
    type_ = checked.type
    assert type_ is not None  # no errors (see `_print_report`): the program has its type
    if args.defs:
        lines = gtir_report.definition_lines(type_)
        if not lines:
            kind = (
                f"program `{type_.name}` defines none"
                if isinstance(type_, gtir_infer.GtirProgram)
                else "an expression, not a program"
            )
            err.write(f"{program.source.filename}: no function definitions ({kind})\n")
    else:
        lines = gtir_report.type_lines(type_, args.one_line)
    out.write("".join(prefix + spell(line) + "\n" for line in lines))


# -- explain --------------------------------------------------------------------------------------
def _explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    target = args.target if args.at is None else f"{args.target}:{args.at}"
    path, _, position = target.rpartition(":")
    path, _, line = path.rpartition(":")
    if not (path and line.isdigit() and position.isdigit()):
        err.write(
            f"typeinf: error: expected FILE:LINE:COL (or FILE --at LINE:COL), not {target!r}\n"
        )
        return EXIT_USAGE
    provider_path = _provider_path(path, args, err)
    free = frozenset(args.allow_free) or False
    try:
        program = _read(path)
        provider = read_provider(program.node, provider_path)
    except iterir.ParseError as error:
        err.write(f"{error}\n")
        return EXIT_USAGE
    problem = _not_a_position(program, path, int(line), int(position))
    if problem is not None:
        err.write(f"{_filename(path)}:{line}:{position}: error: {problem}\n")
        return EXIT_USAGE
    node = innermost_at(program.node, int(line), int(position))
    if node is None:
        err.write(
            f"{_filename(path)}:{line}:{position}: error: no expression there\n"
            f"{excerpt(source_line(program.text, int(line)), int(position))}\n"
        )
        return EXIT_USAGE
    offsets, decided = provider
    gtir = decided.dialect is Dialect.GTIR
    if gtir:
        explained = why_gtir(program.node, node, offsets, free)
    else:
        explained = why(program.node, node, offsets, allow_free=free)
    color = _color(args.color, err)
    for found in explained.errors:
        err.write(render(found, program.source, color) + "\n")
    out.write(f"{program.source.where(node)}: {iterir.pformat_short(node, 60)}\n")
    if explained.type is None:
        out.write("  has no type: inference stopped before it (see the errors)\n")
        return EXIT_TYPE_ERROR
    if explained.of is not None:
        of = explained.of
        out.write(
            f"  has no type of its own; the enclosing {iterir.pformat_short(of, 40)} at "
            f"{program.source.at(of)} has\n"
        )
    if isinstance(explained.type, Cell):
        shown = pformat_gtir(explained.type) if gtir else pformat(explained.type, args.locations)
    elif isinstance(explained.type, GtirInferred):  # a GTIR program's, as `infer` prints it
        shown = str(explained.type)
    else:
        shown = pformat(explained.type, args.locations)
    spelled = (to_ascii_gtir if gtir else to_ascii)(shown) if args.ascii else shown
    out.write(f"  :: {spelled}\n")
    for reason, at in explained.reasons:
        text = reason_text(reason)
        out.write(
            f"  because of {text} at {program.source.at(at)}: {iterir.pformat_short(at, 50)}\n"
        )
    if explained.more:
        out.write(f"  {more_reasons(explained.more)}\n")
    if not explained.reasons:
        out.write("  (nothing constrains it beyond its own form)\n")
    return EXIT_TYPE_ERROR if explained.errors else EXIT_OK


def _not_a_position(program: _Program, path: str, line: int, column: int) -> str | None:
    """Why LINE:COL names no place in FILE (JSON has no lines to point at), or None."""
    if program.source.json_root is not None:
        text_file = "program.itir" if path == "-" else Path(path).with_suffix(".itir")
        return (
            f"`explain` needs a position in the IR text syntax, and JSON has none: convert it with "
            f"`typeinf format {path} --to text > {text_file}` and explain a position in {text_file}"
        )
    if line < 1 or column < 1:
        return "lines and columns are counted from 1"
    lines = program.text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # after the last line's newline
    if line > len(lines):
        return f"line {line} is past the end of the file, which has {len(lines)} line{'' if len(lines) == 1 else 's'}"
    width = len(lines[line - 1].rstrip("\r"))
    if column > width:
        return f"column {column} is past the end of line {line}, which has {width} column{'' if width == 1 else 's'}"
    return None


# -- snapshot -------------------------------------------------------------------------------------
def _snapshot(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    folder = Path(args.dir)
    if not folder.is_dir():
        err.write(f"typeinf: error: {args.dir} is not a folder\n")
        return EXIT_USAGE
    found = list(programs(folder))
    if not found:
        err.write(
            f"typeinf: error: no IR files ({', '.join(f'*{suffix}' for suffix in IR_SUFFIXES)}) in {args.dir}\n"
        )
        return EXIT_USAGE
    code, recorded = EXIT_OK, 0
    counts = dict.fromkeys(
        (
            "match",
            "differ",
            "missing",
            "created",
            "updated",
            "not updated (type errors)",
            "unreadable",
            "unwritable",
        ),
        0,
    )
    color = _color(args.color, out)
    for program in found:
        snapshot = take(program, folder)
        if snapshot.actual is None:
            err.write(f"{snapshot.problem}\n")
            counts["unreadable"] += 1
            code = EXIT_USAGE
            continue
        stored = snapshot.stored
        if stored == snapshot.actual:
            counts["match"] += 1
        elif args.action == "update":
            if snapshot.errors and not args.accept_errors:
                err.write(
                    f"{snapshot.expected}: not updated: {program} has {_plural(snapshot.errors, 'type error')} "
                    f"(`typeinf snapshot update --accept-errors {args.dir}` records them as expected)\n"
                )
                counts["not updated (type errors)"] += 1
                code = max(code, EXIT_TYPE_ERROR)
                continue
            try:
                write_text(snapshot.target, snapshot.actual)
            except (OSError, UnicodeEncodeError) as problem:  # this file is left as it was
                reason = (
                    problem.strerror
                    if isinstance(problem, OSError) and problem.strerror
                    else problem
                )
                err.write(f"{snapshot.expected}: error: not written, left as it was: {reason}\n")
                counts["unwritable"] += 1
                code = EXIT_USAGE
                continue
            done = "created" if stored is None else "updated"
            with_errors = (
                f" ({_plural(snapshot.errors, 'type error')} recorded)" if snapshot.errors else ""
            )
            out.write(f"{done} {snapshot.expected}{with_errors}\n")
            counts[done] += 1
            recorded += snapshot.errors
        elif stored is None:
            out.write(
                f"{snapshot.expected}: missing (run `typeinf snapshot update {args.dir}` to create it)\n"
            )
            counts["missing"] += 1
            code = max(code, EXIT_TYPE_ERROR)
        else:
            out.write(_colored_diff(snapshot.diff(), color))
            counts["differ"] += 1
            code = max(code, EXIT_TYPE_ERROR)
    said = [f"{n} {what}" for what, n in counts.items() if n or what == "match"]
    if recorded:
        said.append(f"{_plural(recorded, 'type error')} recorded")
    out.write(", ".join(said) + "\n")
    return code


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _colored_diff(diff: str, color: bool) -> str:
    if not color:
        return diff
    paint = {"+": "\x1b[32m", "-": "\x1b[31m", "@": "\x1b[36m"}
    return "".join(
        f"{paint[line[0]]}{line}\x1b[0m"
        if line[:1] in paint and line[:3] not in ("+++", "---")
        else line
        for line in diff.splitlines(keepends=True)
    )


# -- main -----------------------------------------------------------------------------------------
def _format(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        node = _read(args.file).node
    except iterir.ParseError as error:
        err.write(f"{error}\n")
        return EXIT_USAGE
    out.write((iterir.pformat(node) if args.to == "text" else dumps(iterir.to_json(node))) + "\n")
    return EXIT_OK


def _docs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    found = {page.name: page for page in pages()}
    if args.page is None:
        width = max(map(len, found))
        out.write("".join(f"{name:<{width}}  {page.title()}\n" for name, page in found.items()))
        return EXIT_OK
    page = found.get(args.page.removesuffix(".md"))
    if page is None:
        err.write(
            f"typeinf: error: no documentation page {args.page!r}; the pages are: {', '.join(found)}\n"
        )
        return EXIT_USAGE
    text = page.text()
    out.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK


_COMMANDS = {
    "infer": _infer,
    "explain": _explain,
    "format": _format,
    "snapshot": _snapshot,
    "docs": _docs,
}


def main(argv: Sequence[str] | None = None) -> int:
    out = guarded(sys.stdout, "standard output")
    err = guarded(sys.stderr, "standard error")
    try:
        return _run(argv, out, err)
    except OutputError as error:  # `>&-`, `> /dev/full`: the environment's
        if error.gone:  # `| head -n 3`: the reader has what it wanted
            return EXIT_READER_GONE
        _last_words(err, f"typeinf: error: {error}\n")
        return EXIT_USAGE
    except Exception as error:  # a bug of ours: said as one, without a traceback
        if os.environ.get("TYPEINF_TRACEBACK"):
            raise
        _last_words(
            err,
            f"typeinf: internal error (a bug in typeinf, not in the input): {type(error).__name__}: "
            f"{str(error)[:500]}\n  please report it with the input; TYPEINF_TRACEBACK=1 shows "
            "where it happened\n",
        )
        return EXIT_INTERNAL


def _run(argv: Sequence[str] | None, out: TextIO, err: TextIO) -> int:
    """Parse the arguments and run the command, every word written through `out` and `err`
    (argparse's help, version and usage errors too), flushed before it returns or exits."""
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = _parser().parse_args(argv)
        return _COMMANDS[args.command](args, out, err)
    finally:
        out.flush()
        err.flush()


def _last_words(err: TextIO, text: str) -> None:
    """Say `text` on standard error, if it can still be written."""
    with contextlib.suppress(OutputError):
        err.write(text)
        err.flush()


if __name__ == "__main__":
    sys.exit(main())
