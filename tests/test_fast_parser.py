"""The fast path of the text parser (iterir/fast_parser.py) against lark's parser, which it must
equal wherever it answers: the same nodes with the same spans, on printed programs, real samples,
respaced and mutated text; where it is unsure, `parse` still gives lark's answer."""

from __future__ import annotations

import lark
import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st

import iterir
from iterir import fast_parser, gtir_parser, parse_driver, parser
from iterir import vocabulary as voc
from iterir.errors import ParseError
from iterir.fast_parser import Unsure
from iterir.fast_parser import parse as fast_parse
from iterir.nodes import Lambda, Literal, Node, SourceSpan, Sym, SymRef
from tests.strategies import programs
from tests.test_parser_fuzz import SAMPLE_TEXTS, cpu_time_limit, mutated_text, program_texts
from tests.welltyped import well_typed_programs

FILENAME = "t.itir"


def by_lark(text: str) -> Node | ParseError:
    try:
        return parser.parse_fencil_by_lark(text, FILENAME)
    except ParseError as error:
        return error


def by_fast_path(text: str) -> Node | None:
    with parse_driver.LOCK:
        parser.callbacks.filename = FILENAME
        try:
            return fast_parse(text, parser.callbacks)
        except (Unsure, ParseError):
            return None


def spans(node: Node) -> list[tuple[str, SourceSpan | None]]:
    return [(type(n).__name__, n.loc) for n in iterir.walk(node)]


def agree(text: str) -> str:
    """Check that the fast path, where it answers, answers as lark does; say which way it went."""
    fast = by_fast_path(text)
    expected = by_lark(text)
    if fast is None:
        return "lark" if isinstance(expected, Node) else "error"
    assert isinstance(expected, Node), f"the fast path read what lark rejects: {expected}"
    assert fast == expected
    assert spans(fast) == spans(expected)
    return "fast"


@given(well_typed_programs)
def test_every_printed_well_typed_program_takes_the_fast_path(generated: tuple[Node, ...]) -> None:
    assert agree(iterir.pformat(generated[0])) == "fast"


@pytest.mark.parametrize("text", SAMPLE_TEXTS)
def test_gt4py_samples_take_the_fast_path(text: str) -> None:
    assert agree(text) == "fast"


@given(programs)
def test_any_printed_program_is_read_as_lark_reads_it(program: Node) -> None:
    event(agree(iterir.pformat(program)))


SPACING = st.sampled_from([" ", "  ", "\n", "\n\n  ", "\t", " # a comment\n", "\r\n", "\f"])


@given(program_texts, st.data())
def test_respaced_text_is_read_as_lark_reads_it(text: str, data: st.DataObject) -> None:
    """Other spaces, line breaks and comments between tokens: the same nodes, spans moved."""
    pieces = text.split(" ")
    respaced = pieces[0] + "".join(data.draw(SPACING) + piece for piece in pieces[1:])
    event(agree(respaced))


@given(mutated_text(program_texts))
def test_mutated_text_is_read_as_lark_reads_it(text: str) -> None:
    event(agree(text))


@pytest.mark.parametrize(
    "text",
    [
        "λ(then) → then",  # a keyword where only a name fits: lark's contextual lexer reads a name
        "λ(if, λ) → f",
        "λ(x) → f(if)",  # where an expression may start, `if` is the keyword: an error
        "x-1",  # `-1` is a number, but not after an operand: lark reads a minus
        "f(x: It[float64])",  # an annotation, valid only in a fencil header
        "fen(x: It[float64], y) { y ← (λ(a) → ·a)(x) @ c⟨ IDim: [0, 1) ⟩; }",
        "iffy",
        "`a\\u0062`",
        '"x\\u0041"f32',
        # A keyword where a domain names an axis: an error, as lark says (the domain token took
        # `if` and `λ` for names); `then` and `else` are names there for lark too.
        "c⟨ if: [0, n) ⟩",
        "u⟨ I: [0, n), λ: [0, m) ⟩",
        "out ← (f)(x) @ c⟨ if: [0, n) ⟩;",
        "u⟨ else: [0, n), then: [0, m) ⟩",
    ],
)
def test_what_the_fast_path_leaves_to_lark_parses_as_lark_parses_it(text: str) -> None:
    agree(text)
    expected = by_lark(text)
    try:
        assert iterir.parse(text, FILENAME) == expected
    except ParseError as error:
        assert isinstance(expected, ParseError) and str(error) == str(expected)


@pytest.mark.parametrize(
    "text",
    [
        "f(g(h(x)))",  # a run of `)` closing calls only
        "f(g(h(x))\n)",  # a run broken by a line break
        "f(g(x) ) + h(y)",  # and by a space
        "f (g (x))",  # a name, a space, `(`: two tokens
        "(f(x))",  # a run closing a call, then parentheses
        "f(·g(h(x)))",  # then a prefix operator
        "λ(f) → f(f(x) + f(y))",  # then an operator chain
        "f(g())",  # `()` then `)`
        "f()(g(x))(y)",  # calls of calls
        "f(x # a comment\n)",
        "`q r`(x)",  # a quoted name's call
        "True(x)",  # a name that is a literal, called
        "f(\n  g(\n    h(x)\n  )\n)",  # a run of `)` over lines, as printed
        "f(g(x) \n , h(y\n\t)  )",  # a run of `)` with spaces and a tab
        "λ(f) → (f(f(x)\n  ))",  # then a parenthesis
        "f(λ(x) → g(λ(y) → h(y))\n )",  # a run parted by λs' ends, read on from where it stopped
        "f(((g(h(x))) ) )",  # and by parentheses
        "{f(x)\n }",  # then a bracket
        "a + b - c + f(a) × b[0] - ·a == b + (c)",  # names between operators, and the rest
        "a\n  + b\n  - c×d == e\n\n / f ∨ g < h",  # operators and names, one token
        "·a + b × c + d (x) + e # c\n (y) + f\r\n + g",  # and where they are not
        "a + b == c: [0, 1) + d",  # a name between operators that starts a range
        "·⟪Iₒ, -1ₒ, Jₒ, 2ₒ⟫(x) + ⟪ ifₒ\t,x1ₒ ,  ٣ₒ ⟫(y)",  # shifts by offsets, one token each
        "⟪Iₒ⟫( x\t)(y) + ⟪Iₒ⟫(True) + ⟪Iₒ⟫(x, y) + ⟪Iₒ⟫(\nx) + ⟪Iₒ⟫ (x) + ⟪Iₒ⟫(1)",
        "⟪Iₒ,\n 1ₒ⟫(x) + ⟪`q`ₒ⟫(x) + ⟪Iₒ, f(x)⟫(x) + ⟪⟫(x)",  # other shifts, token by token
        "λ(a, b) → λ( c ,d )\t→ λ() → f(a, b, c, d)",  # λ's heads, one token each
        "c⟨ IDim: [0, n), `q r`:[ a ,True\t), x:[٣,y) ⟩",  # named ranges, one token each
        "{c⟨ IDim: [0, n), J:[1,m) ⟩, u⟨ V: [0, n) ⟩, c⟨I: [0, n)⟩}",  # whole domains, one each
        "c⟨ IDim: [0, -1), J: [n + 1, m), K: [0,\n n), L: [`q`, n) ⟩",  # others token by token
        "λ(a,\n b) → λ(`q`) → λ(x) \n→ f(a, b, `q`, x)",  # other heads, token by token
        "fen(out, inp) { f = λ(x) → ·x; g = λ(y,\nz) → y; out ← (f)(inp) @ c⟨ IDim: [0, 1) ⟩; }",
    ],
)
def test_calls_and_runs_of_closers_are_read_as_lark_reads_them(text: str) -> None:
    assert agree(text) == "fast"


@pytest.mark.parametrize("text", ["λ(x) → if(x) then x else x", "λ(x) → f(if(x))", "f(x))"])
def test_a_keyword_before_a_bracket_or_a_closer_too_many_is_read_as_lark_reads_it(
    text: str,
) -> None:
    agree(text)


def test_a_keyword_used_as_a_name_is_a_name() -> None:
    assert by_fast_path("λ(then) → then") is None  # left to lark
    assert iterir.parse("λ(then) → then") == Lambda((Sym("then"),), SymRef("then"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "f(x",
            "1:4: error: unexpected end of input; expected `(`, `)`, `,`, `:`, `[`, an operator",
        ),
        ("λ(x) → ", "unexpected end of input; expected an expression"),
        ("f(x: It[float64])", "a parameter annotation is only allowed in a parameter list"),
        ("`\\q`", "invalid escape in a quoted name"),
        (
            "f(x) {\n  9\n  g = λ(a) → a;\n}",
            "3:3: error: unexpected `g`",
        ),  # a body holds no bare expression
    ],
)
def test_errors_are_lark_s_located_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        iterir.parse(text, FILENAME)
    assert message in str(caught.value)
    assert str(caught.value) == str(by_lark(text))


#: Pieces of text where lark's terminals overlap: names, keywords and the marks that make a name
#: an offset or an axis, numbers and a minus, domains, quoted text, spaces and comments.
LEXER_FRAGMENTS = st.sampled_from(
    ["x", "if", "then", "else", "λ", "λx", "iffy", "ifₒ", "c", "u", "⟨", "c⟨", "ₒ", "ₐ", "xₐ", "-",
     "1", "-1", "-1ₒ", "-.5", "2.5", "e3", ".", "f32", "i8", "b", "`", "\\", '"', "=", "==", "<",
     " ", "\n", "\t", "# c\n", "٣", "é", "_", "(", ")", "→", "·", "⟪", "⟩", "[", ";", "@", "←",
     "\x00", "\u00a0", "\v", "f(", "))", ")))", "+ x", "==x", "- \ty", "+ if", "+ λ(", " (",
     "+ `q`", "+c⟨", "-u", "⟫", ",", "Iₒ", "⟪Iₒ, -1ₒ⟫", "⟪ Iₒ ,1ₒ ⟫", "λ(x) →", "λ(", "λ()", "λ( a ,b )\t→",
     "IDim: [0, n)", ": [", "[0, 1)", "x:[a,٣ )", "⟪Iₒ⟫(x)", "( x )", "(if)",
     " + ", "a\n  - b", "× c", "==d", "/", "∨", "<"]
)  # fmt: skip


@given(
    st.lists(
        LEXER_FRAGMENTS | st.sampled_from(["c⟨ ", "u⟨ ", " ⟩", "if: [0, n)", "λ: [0, n)"]),
        max_size=10,
    ).map("".join)
)
@example("c⟨ if: [0, n) ⟩")
@example("u⟨ I: [0, n), λ: [0, m) ⟩")
@example("c⟨ else: [0, n) ⟩ + a\n - if")
@example("⟪Iₒ, -1ₒ⟫(if) + λ(if) → x")
def test_the_compound_tokens_parts_parse_as_lark_parses_them(text: str) -> None:
    """What the parser reads out of a compound token (a domain's ranges, a chain's names, a
    shift's offsets, a λ's parameters) is what lark reads there: the lexer property above
    compares only where each such token ends. A domain took `if` for an axis's name."""
    agree(text)


def lark_tokens(text: str) -> tuple[list[tuple[str, str, int, int, int, int]], bool]:
    """The tokens lark's lexer reads with all its terminals, `END` last; and whether it read them
    all (it fails at a character that no terminal matches)."""
    read = []
    try:
        for t in parser.lark_parser().lex(text):
            read.append((t.type, t.value, t.line, t.column, t.end_line, t.end_column))
    except lark.exceptions.LexError:
        return read, False
    lines = text.split("\n")
    end = (len(lines), len(lines[-1]) + 1)
    return [*read, ("END", "", *end, *end)], True  # type: ignore[list-item]


@given(st.lists(LEXER_FRAGMENTS, max_size=14).map("".join) | st.text(max_size=12))
@example("-1ₒ x-1 -.5e3i8 1.5ₒ 1ₐ")
@example("iffy ifₒ λx λ(x) thenₐ else_ `if` c⟨ u⟨ cu⟨")
@example('a==b=c "s"f32 # if\n\tx\f\r\n')
@example('"s" \v')
@example("f(g(`h`(x)))\n) ) λ(x) → x + y - zₒ ×\tif+then == `q`(f (x)")
@example("⟪Iₒ, -1ₒ⟫(x) ⟪ ifₒ\t,x1ₒ ,  ٣ₒ ⟫⟪Jₒ⟫ ⟪Iₒ,\n1ₒ⟫ ⟪`q`ₒ⟫ ⟪Iₒ, x⟫ ⟪⟫ ⟪Iₒ,⟫ ⟪Iₒ⟫x")
@example("a + b\n  -c×d == e\n\n / f ∨ g< h + i(x) + j[0] + k: [0, 1) + l # c\n + m + nₒ + if + 1")
@example("a + b\n  + c #\n + d\r\n + e (x)")
@example("+c⟨ +u⟨ +x⟨")
@example("c⟨ I: [0, n), J: [1, m) ⟩ u⟨I:[a,b)⟩ c⟨ I: [0, n) ⟩x c⟨ `q`: [0, n) ⟩ c⟨ I: [0, n),\n⟩")
@example("⟪Iₒ⟫(x) ⟪Iₒ, 1ₒ⟫( x\t)(y) ⟪Iₒ⟫(if) ⟪Iₒ⟫(`q`) ⟪Iₒ⟫(x, y) ⟪Iₒ⟫(\nx) ⟪Iₒ⟫ (x) ⟪Iₒ⟫(1)")
@example("I: [0, n) `q r`:[ a ,b\t) I: [0, -1) I: [if, 1) I: [1.5, 2) I: [0, n\n) I: [x,y]")
@example("λ(x0, y) → λ( a ,b )\t→ λ() → λ (x) → λ(x)\n→ λ(then) → λ(x,) → λ(`q`) → λ(x: It) →")
def test_the_fast_lexer_reads_the_tokens_lark_s_lexer_reads(text: str) -> None:
    expected, whole = lark_tokens(text)
    read: list[tuple[str, str, int, int, int, int]] = []

    def part(token: fast_parser.Tok) -> None:
        """Several of lark's tokens parted as the parser does, to the last."""
        if token.type in fast_parser.SEVERAL:
            for piece in fast_parser.split(token):
                part(piece)
        elif token.type in ("CDOMAIN", "CHAIN", "LAMBDAS", "RANGE", "SHIFTED", "SHIFTS", "UDOMAIN"):
            pieces, _ = lark_tokens(token.value)  # lark's tokens of its text, moved to its place
            for kind, value, line, column, end_line, end_column in pieces[:-1]:
                shift = token.column - 1 if line == 1 else 0  # a line of its own from the 2nd
                at, end_at = token.line + line - 1, token.line + end_line - 1
                read.append((kind, value, at, column + shift, end_at, end_column + shift))
        else:
            read.append(tuple(token))

    for token in fast_parser.tokens(text):
        part(token)
        if token.type == "END":  # where the parser stops (the lexer may say it again)
            break
    if whole:
        assert read == expected
    else:  # the fast lexer reads the same up to the character, and marks it
        assert read[: len(expected)] == expected
        assert read[len(expected)][0] == "_BAD"


GTIR_FRAGMENTS = st.sampled_from(
    ["ₕ", "ᵥ", "ₗ", "∞", "⇑", "<=", ">=", "temporary (", "} else {", "@", "←", ";", ":", " ",
     "x", "3", "True", ":i32", ": Field[", "It[[", '"s"', "`q`", "# c\n", "\n", "f32", "i8"]
)  # fmt: skip


@example("a @ # ;\n ←")  # the comment removed, `@` and `←` meet: GTIR's mark
@example("a @ b; c ← d: [0, 1)")  # a fencil's closures and ranges: no mark
@example("x: # c\n Field[")
@given(st.lists(GTIR_FRAGMENTS, max_size=12).map("".join))
def test_gtir_hints_look_for_their_marks_first_without_changing_the_answer(text: str) -> None:
    searched = gtir_parser._HINTS.search(gtir_parser._OPAQUE.sub("", text)) is not None
    assert gtir_parser.hints(text) == searched


def test_gtir_hints_are_linear_in_the_number_of_at_signs() -> None:
    """`@[^;←]*←` scanned the rest of the text from every `@`: 200,000 took minutes."""
    text = "←" + "@" * 200_000 + ";"
    with cpu_time_limit(20):
        assert not gtir_parser.hints(text)


@given(st.from_regex(r"\A-?\d{1,6}(?:\.\d*)?\Z"))
def test_a_number_of_any_decimal_digits_reads_as_its_body_and_type(text: str) -> None:
    """Digits only (any script's, as `\\d`) are an int32 at once; a sign or a point takes the
    general path: both as the vocabulary's expressions say."""
    node = iterir.parse(text)
    expected_type = "int32" if voc.INT_RE.fullmatch(text) else "float64"
    assert node == Literal(text, expected_type)


#: Every compound token's places for a name, with a keyword or a near-keyword put there.
KEYWORD_PLACES = [
    "c⟨ {k}: [0, n) ⟩", "u⟨ I: [{k}, n) ⟩", "c⟨ I: [0, {k}) ⟩", "I: [{k}, 1)", "{k}: [0, 1)",
    "f({k}: [0, 1))", "⟪Iₒ, {k}ₒ⟫(x)", "⟪Iₒ⟫({k})", "⟪{k}ₒ⟫(x)", "⟪Iₒ, 1ₒ⟫ ({k})", "a + {k}",
    "a + {k} + b", "a\n + {k}", "λ({k}) → x", "λ(a, {k}) → a", "f({k}(x))", "f(g({k}(x)))",
    "{k}(x)", "f(x)({k})", "λ(x) → f({k}( x))", "{k} = λ(x) → x;", "f(`{k}`(x))",
    "out ← ({k})(x) @ c⟨ I: [0, n) ⟩;", "{k} ← (f)(x) @ c⟨ I: [0, n) ⟩;", "fen({k}) {{ }}",
    "λ(x) → {k} + 1", "·{k}", "{{ {k}, x }}", "x[{k}]", "{k}ₐ", "{k}ₒ",
]  # fmt: skip


@pytest.mark.parametrize("word", ["if", "then", "else", "λ", "True", "iff", "λx", "elsewhere"])
def test_a_keyword_in_a_compound_token_s_place_reads_as_lark_reads_it(word: str) -> None:
    """The compound tokens' expressions say again where the grammar takes a name; wherever a
    keyword stands in one of those places, the fast path answers as lark does or leaves it."""
    for place in KEYWORD_PLACES:
        agree(place.format(k=word))
