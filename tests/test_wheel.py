"""The built wheel: what it holds, and that it works when installed in a fresh virtual
environment, away from this checkout."""

from __future__ import annotations

import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

from tests.conftest import ROOT
from typeinf import __version__


def test_wheel_installs_and_infers(tmp_path: Path) -> None:
    wheels = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("itir_typeinf-*.whl")
    _check_contents(wheel)
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True
    )
    script = (
        "import iterir, typeinf, pathlib; "
        "assert 'site-packages' in typeinf.__file__; "
        "assert (pathlib.Path(typeinf.__file__).parent / 'builtins' / 'iterators.sig').is_file(); "
        "print(typeinf.pformat(typeinf.infer(iterir.parse('deref')), locations=True))"
    )
    result = subprocess.run(
        [str(python), "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert result.stdout == "(It[T₂, T₂, T₀¹]) → T₀¹\n"
    command = subprocess.run(
        [str(environment / "bin" / "typeinf"), "infer", str(ROOT / "examples" / "laplacian.itir")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert command.stdout.startswith("lap :: (It[float64⁰]) → float64⁰\n{laplacian(")


def _check_contents(wheel: Path) -> None:
    """Two packages, their metadata and the `.pth` file of `TYPEINF_GT4PY`, nothing else; the
    docs, licence and typing marker in."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(f"itir_typeinf-{__version__}.dist-info/METADATA").decode()
        startup = archive.read("itir_typeinf.pth")
    assert {name.split("/")[0] for name in names} == {
        "iterir",
        "typeinf",
        f"itir_typeinf-{__version__}.dist-info",
        "itir_typeinf.pth",
    }
    assert startup == (ROOT / "typeinf" / "frontends" / "itir_typeinf.pth").read_bytes()
    for needed in (
        "typeinf/py.typed",
        "iterir/py.typed",
        "typeinf/builtins/math.sig",
        "typeinf/docs/notation.md",
        "typeinf/docs/rules.md",
        "typeinf/docs/builtins.md",
        "typeinf/docs/offset-providers.md",
        f"itir_typeinf-{__version__}.dist-info/licenses/LICENSE",
    ):
        assert needed in names, needed
    assert not any("__pycache__" in name or name.startswith("tests/") for name in names)
    headers, _, description = metadata.partition("\n\n")
    assert f"Version: {__version__}" in headers and "License-Expression: BSD-3-Clause" in headers
    assert description == (ROOT / "PACKAGE.md").read_text(encoding="utf-8")
    # The long description points only to what its reader has: no links to repository paths.
    assert not [link for link in re.findall(r"\]\(([^)]+)\)", description) if "://" not in link]
