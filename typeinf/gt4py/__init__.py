"""typeinf inside GT4Py 1.2: GT4Py's GTIR nodes, types and offset-provider types to iterir's
and back (`to_gt4py`, `from_gt4py`, …), without loss; drop-ins for GT4Py's type inference
(`infer`, `reinfer`; `Reuse`, what a series of their calls carries over), and the switch that
makes GT4Py use them (`install`, `uninstall`, `installed`; `summary`, what they did).

Needs GT4Py, which the extra installs: `pip install "itir-typeinf[gt4py]"` (GT4Py 1.2 needs
Python ≥ 3.12). Importing this package without it is an ImportError that says so.
"""

from __future__ import annotations

try:
    import gt4py.next.iterator.ir  # noqa: F401  # only to fail here, with the message below
except ImportError as missing:
    raise ImportError(
        "typeinf.gt4py needs GT4Py 1.2 (Python ≥ 3.12): install the extra, "
        '`pip install "itir-typeinf[gt4py]"`'
        f" ({missing})"
    ) from missing

from typeinf.gt4py.errors import ConversionError, DisagreementWarning
from typeinf.gt4py.inference import GT4PyTypeInferenceError, Reuse, infer, reinfer
from typeinf.gt4py.nodes import from_gt4py, location_from_gt4py, location_to_gt4py, to_gt4py
from typeinf.gt4py.offsets import offset_types_from_gt4py, offset_types_to_gt4py
from typeinf.gt4py.switch import Summary, install, installed, is_installed, summary, uninstall
from typeinf.gt4py.types import type_from_gt4py, type_to_gt4py

__all__ = [
    "ConversionError",
    "DisagreementWarning",
    "GT4PyTypeInferenceError",
    "Reuse",
    "Summary",
    "from_gt4py",
    "infer",
    "install",
    "installed",
    "is_installed",
    "location_from_gt4py",
    "location_to_gt4py",
    "offset_types_from_gt4py",
    "offset_types_to_gt4py",
    "reinfer",
    "summary",
    "to_gt4py",
    "type_from_gt4py",
    "type_to_gt4py",
    "uninstall",
]
