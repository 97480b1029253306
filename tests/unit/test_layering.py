"""kube/, dra/ and lab/ must import without Textual (ui/ is the only Textual importer)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import gsb_tui

PURE = ("gsb_tui.kube", "gsb_tui.dra", "gsb_tui.lab", "gsb_tui.cluster")


def modules(package: str) -> list[str]:
    path = Path(gsb_tui.__file__).parent / package.split(".", 1)[1]
    return [package] + [f"{package}.{m.name}" for m in pkgutil.iter_modules([str(path)])]


def test_pure_layers_import_without_textual() -> None:
    names = [m for p in PURE for m in modules(p)]
    assert len(names) > len(PURE)  # the packages really have modules
    code = (
        "import sys, importlib\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'textual' or name.startswith('textual.'):\n"
        "            raise ImportError('textual imported from a pure layer')\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print('ok', len(sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok")
