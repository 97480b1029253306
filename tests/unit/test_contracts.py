"""The shape of the code as tested contracts: the direction of imports (import-linter, from
pyproject.toml), no imports by string, and a first frame that needs neither the lab package
nor the Kubernetes client library."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import gsb_tui

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(gsb_tui.__file__).resolve().parent


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def test_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    kept = re.findall(r"^(.*) KEPT$", proc.stdout, re.M)
    assert len(kept) == len(_contracts()) >= 3, proc.stdout[-2000:]


def test_every_top_level_module_has_a_layer() -> None:
    (layers,) = [c for c in _contracts() if c["type"] == "layers"]
    named = {m.strip() for layer in layers["layers"] for m in re.split(r"[|:]", layer)}  # type: ignore[attr-defined]
    present = {
        f"gsb_tui.{p.stem}"
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
    }
    assert present - named == set(), "a new top-level module needs its place in the layers"
    assert named - present == set(), "the layers name a module that does not exist"


def test_no_imports_by_string() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in PACKAGE.rglob("*.py")
        if re.search(r"import_module\(|__import__\(", path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_first_frame_needs_neither_the_lab_nor_the_kubernetes_client(tmp_path: Path) -> None:
    """The first frame with data is drawn before gsb_tui.lab or kubernetes_asyncio is imported;
    the lab is loaded afterwards (the checklist does come)."""
    script = textwrap.dedent(
        f"""
        import asyncio, json, sys
        from pathlib import Path
        from gsb_tui.cli import demo_recording
        from gsb_tui.kube.source import ReplaySource
        from gsb_tui.ui.app import GsbApp

        def loaded():
            return sorted(  # a copy first: the checks' thread may be importing meanwhile
                m for m in tuple(sys.modules)
                if m == "gsb_tui.lab" or m.startswith(("gsb_tui.lab.", "kubernetes_asyncio"))
            )

        seen = {{}}

        def hook(revision):
            seen.setdefault("first_frame", loaded())

        async def main():
            source = ReplaySource(demo_recording(), speed=0)
            app = GsbApp(source, Path({str(tmp_path)!r}), "en", frame_hook=hook,
                         watch_lab_dir=False)
            async with app.run_test(size=(120, 40)) as pilot:
                for _ in range(400):
                    await pilot.pause(0.05)
                    if "first_frame" in seen and app.dashboard.checklist.verdicts:
                        break
                seen["later"] = loaded()

        asyncio.run(main())
        print(json.dumps(seen))
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["first_frame"] == [], seen
    assert "gsb_tui.lab" in seen["later"]  # the checklist did load, after the frame
    assert not any(m.startswith("kubernetes_asyncio") for m in seen["later"])


def test_no_module_over_400_lines_without_a_reason() -> None:
    """Small modules; a longer one says why on its first line ("# Over 400 lines: ...")."""
    modules = {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8").splitlines()
        for path in PACKAGE.rglob("*.py")
    }
    unexplained = [
        name
        for name, lines in modules.items()
        if len(lines) > 420 and not lines[0].startswith("# Over 400 lines: ")
    ]
    assert unexplained == []
