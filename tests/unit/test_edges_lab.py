"""A lab directory that is itself a symlink loop is worded as such (issue 26, part 6): it used
to be "slices.txt is a symlink loop", blaming a file the learner never made a link."""

from __future__ import annotations

import os
from pathlib import Path

from gsb_tui.lab.files import LabFiles, read_file
from gsb_tui.lab.report import evaluate
from tests.recorded import view


def test_a_lab_dir_that_loops_is_named_not_the_file(tmp_path: Path) -> None:
    lab = tmp_path / "gsb-dra"
    lab.symlink_to(lab)  # ln -s gsb-dra gsb-dra
    got = LabFiles(lab).read("slices.txt")
    assert got.status == "loop" and got.problem is not None
    assert got.problem == (
        f"slices.txt cannot be read: the lab directory {lab} is a symlink loop "
        "(it points back at itself)"
    )
    assert str(lab) in got.problem.ko and "심볼릭 링크 고리" in got.problem.ko


def test_a_loop_further_up_is_named_where_it_starts(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    got = read_file(tmp_path / "a" / "lab" / "class.txt")
    assert got.status == "loop" and got.problem is not None
    assert f"the lab directory {tmp_path / 'a'} is a symlink loop" in got.problem


def test_a_file_that_loops_is_still_the_files_loop(tmp_path: Path) -> None:
    (tmp_path / "slices.txt").symlink_to(tmp_path / "slices.txt")
    got = LabFiles(tmp_path).read("slices.txt")
    assert got.status == "loop" and got.problem is not None
    assert got.problem.startswith("slices.txt is a symlink loop")


def test_the_checklist_says_so_for_every_step(tmp_path: Path) -> None:
    lab = tmp_path / "gsb-dra"
    os.symlink(lab, lab)
    verdicts = evaluate(view("step-8"), lab)
    reasons = [str(v.reason) for v in verdicts if not v.ok and "symlink" in str(v.reason)]
    assert reasons, [str(v.reason) for v in verdicts]
    assert all(f"the lab directory {lab} is a symlink loop" in r for r in reasons)
