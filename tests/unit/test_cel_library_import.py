"""The CEL library is imported without its command-line tool, and a cel package whose import
needs that module is still imported whole. Each runs in a fresh interpreter: sys.modules of
this one already holds whatever other tests imported."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, *path: Path) -> str:
    env_path = [str(p) for p in path] + [str(ROOT)]
    script = f"import sys; sys.path[:0] = {env_path!r}\n" + textwrap.dedent(code)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_library_compiles_without_importing_its_command_line_tool() -> None:
    out = _run(
        """
        from gsb_tui.dra.cel.prepared import library
        lib = library()
        print(lib.compile("device.attributes['x'].model == 'a'") is not None)
        print(sorted(m for m in ("typer", "prompt_toolkit", "pygments") if m in sys.modules))
        """
    )
    assert out.splitlines() == ["True", "[]"]


def test_a_cel_package_that_needs_its_cli_module_is_imported_as_it_is(tmp_path: Path) -> None:
    package = tmp_path / "cel"
    package.mkdir()
    (package / "__init__.py").write_text("from .cli import main\ndef compile(e): return e\n")
    (package / "cli.py").write_text("def main(): return 'the real cli'\n")
    out = _run(
        """
        from gsb_tui.dra.cel.prepared import library
        lib = library()
        print(lib.main(), lib.compile("x"))
        """,
        tmp_path,
    )
    assert out == "the real cli x"
