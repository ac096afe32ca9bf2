"""The built wheel ships the builtin signatures: install it in a fresh virtual environment and
infer a program there, away from this checkout."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

from tests.conftest import ROOT


def test_wheel_installs_and_infers(tmp_path: Path) -> None:
    wheels = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True)  # fmt: skip
    (wheel,) = wheels.glob("itir_typeinf-*.whl")
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True)
    script = (
        "import iterir, typeinf, pathlib; "
        "assert 'site-packages' in typeinf.__file__; "
        "assert (pathlib.Path(typeinf.__file__).parent / 'builtins' / 'iterators.sig').is_file(); "
        "print(typeinf.pformat(typeinf.infer(iterir.parse('deref')), locations=True))"
    )
    result = subprocess.run([str(python), "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert result.stdout == "(It[T₂, T₂, T₀¹]) → T₀¹\n"
    command = subprocess.run([str(environment / "bin" / "typeinf"), "infer", str(ROOT / "examples" / "laplacian.itir")],
                             cwd=tmp_path, capture_output=True, text=True, check=True)  # fmt: skip
    assert command.stdout.startswith("{lap :: (It[float64⁰]) → float64⁰, laplacian(")
