"""The words of the fencil IR's builtins' registry (`typeinf.fencil.signatures`): a signature that
reads but is not a type, one whose dtypes lack their size marks, and a call of `register_builtin`
that cannot register. Apart from `messages`, which reads the registry (a builtin's signature
tells which dtypes its argument takes), so that the registry may say these without a circle.
"""

from __future__ import annotations

from iterir.display import value_text
from typeinf.fencil.reader import TypeSyntaxError


def not_a_type(name: str, text: str) -> TypeSyntaxError:
    """The signature `text` of the builtin `name` reads, but as something else than a type."""
    return TypeSyntaxError(f"the signature of {name!r} must be a type, not {text!r}")


def needs_size_marks(error: TypeSyntaxError, corrected: str) -> TypeSyntaxError:
    """`error`, of a signature that reads as `corrected`, its dtypes given size marks."""
    return TypeSyntaxError(
        f"{error}: a dtype that stands for a value needs a size mark (`float64¹`); "
        f"did you mean {corrected!r}?"
    )


# -- register_builtin's arguments -----------------------------------------------------------------
def relations_not_a_function(relations: object) -> TypeError:
    return TypeError(
        "typeinf.register_builtin: relations must be None or a function of the "
        f"signature's variables, not {value_text(relations)}"
    )


def not_an_identifier(name: str) -> ValueError:
    return ValueError(f"a builtin's name must be an identifier, not {value_text(name)}")


def registered_already(name: str) -> ValueError:
    return ValueError(f"{name!r} is a builtin already; pass replace=True to replace it")


def not_a_type_to_register(name: str, how: str) -> ValueError:
    """`register_builtin` given `rule` or `dtype` (`how`) for a signature: it takes a type."""
    return ValueError(
        f"{name!r} cannot be registered as {how!r}: register_builtin takes a type; a builtin "
        "typed by a rule, or a type name, needs code of typeinf's own (docs/architecture.md)"
    )
