"""Reading learner files: every bad input gives a precise problem, nothing raises, nothing is
written. Bad inputs are made in tmp dirs (and a few checked-in samples in fixtures/labfiles)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gsb_tui.lab import files as lab_files
from gsb_tui.lab.files import LabFiles, decode, read_file
from gsb_tui.lab.parse import parse_json, parse_key_values, parse_yaml
from gsb_tui.words import CATALOG as MESSAGES

SAMPLES = Path(__file__).parent.parent / "fixtures" / "labfiles"


def test_missing(tmp_path: Path) -> None:
    got = read_file(tmp_path / "slices.txt")
    assert got.status == "missing" and got.missing
    assert got.problem is not None and got.problem.key == "file.missing"
    assert "slices.txt is not there yet" in got.problem


def test_empty_and_whitespace_only(tmp_path: Path) -> None:
    (tmp_path / "slices.txt").write_bytes(b"")
    (tmp_path / "class.txt").write_bytes(b" \r\n\t\n")
    for name in ("slices.txt", "class.txt"):
        got = read_file(tmp_path / name)
        assert got.status == "empty"
        assert got.problem == f"{name} is empty"


def test_directory_in_its_place(tmp_path: Path) -> None:
    (tmp_path / "one.yaml").mkdir()
    got = read_file(tmp_path / "one.yaml")
    assert got.status == "directory"
    assert got.problem == "one.yaml is a directory, not a file"


def test_symlink_loop_and_dangling_symlink(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    (tmp_path / "claim.json").symlink_to(tmp_path / "nowhere.json")
    loop = read_file(tmp_path / "a.yaml")
    assert loop.status == "loop" and loop.problem is not None
    assert "symlink loop" in loop.problem
    dangling = read_file(tmp_path / "claim.json")
    assert dangling.status == "missing" and dangling.problem is not None
    assert dangling.problem.key == "file.dangling"


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "report.json")
    got = read_file(tmp_path / "report.json")
    assert got.status == "not-regular"


def test_not_utf8_names_the_byte_and_line(tmp_path: Path) -> None:
    (tmp_path / "slices.txt").write_bytes(b"driver=x\nmodel=caf\xe9\n")
    got = read_file(tmp_path / "slices.txt")
    assert got.status == "not-utf8"
    assert got.problem == "slices.txt is not UTF-8 text (byte 0xe9 on line 2)"


def test_utf16_is_named(tmp_path: Path) -> None:
    (tmp_path / "class.txt").write_bytes("deviceclass=x\n".encode("utf-16"))
    got = read_file(tmp_path / "class.txt")
    assert got.status == "not-utf8" and got.problem is not None
    assert got.problem.key == "file.utf16"


def test_nul_bytes_are_not_text(tmp_path: Path) -> None:
    (tmp_path / "claim.json").write_bytes(b'{"claim": "a\x00"}')
    assert read_file(tmp_path / "claim.json").status == "binary"


def test_bom_and_crlf_are_tolerated(tmp_path: Path) -> None:
    (tmp_path / "slices.txt").write_bytes(b"\xef\xbb\xbfdriver=d\r\nnode=n\rmodel=m\r\n")
    got = read_file(tmp_path / "slices.txt")
    assert got.ok and got.text == "driver=d\nnode=n\nmodel=m\n"


def test_huge_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.json"
    with path.open("wb") as fh:  # sparse: 2 MiB on paper, nothing on disk
        fh.truncate(2 * lab_files.MAX_BYTES)
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(lab_files.os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    got = read_file(path)
    assert got.status == "too-large" and got.problem is not None
    assert "over the 1024 KiB limit" in got.problem
    assert reads == []  # refused from its size: not read at all


def test_read_is_capped_when_file_grows(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_bytes(b"a" * 5000)
    got = read_file(path, max_bytes=1000)
    assert got.status == "too-large"


def test_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests run as root, which reads anything: make the open fail as it would for a learner.
    path = tmp_path / "pick.yaml"
    path.write_text("kind: Pod\n")

    def deny(*_: object, **__: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(lab_files.os, "open", deny)
    got = read_file(path)
    assert got.status == "denied"
    assert got.problem == "pick.yaml cannot be read: permission denied"


def test_labfiles_reads_relative_to_root_and_caches(tmp_path: Path) -> None:
    (tmp_path / "slices.txt").write_text("driver=a\n")
    files = LabFiles(tmp_path)
    first = files.read("slices.txt")
    (tmp_path / "slices.txt").write_text("driver=b\n")
    assert files.read("slices.txt") is first  # one evaluation sees one version
    assert LabFiles(tmp_path).read("slices.txt").text == "driver=b\n"


# ---------------------------------------------------------------- key=value


def test_key_values_tolerate_spaces_quotes_comments_and_case() -> None:
    kv = parse_key_values(
        '# my answers\n\n  Driver = gpu.example.com  \ndevices="8"\n'
        "model='LATEST-GPU-MODEL'   # from the slice\n"
        "selector=device.driver == 'gpu.example.com'\n"
    )
    assert kv.values == {
        "driver": "gpu.example.com",
        "devices": "8",
        "model": "LATEST-GPU-MODEL",
        "selector": "device.driver == 'gpu.example.com'",
    }
    assert kv.bad_lines == () and kv.duplicates == ()
    assert kv.lines["devices"] == 4


def test_key_values_report_duplicates_and_bad_lines() -> None:
    kv = parse_key_values("driver=a\nnode: lab-node\ndriver=b\n")
    assert kv.bad_lines == ((2, "node: lab-node"),)
    (dup,) = kv.duplicates
    assert dup.key == "driver" and dup.lines == (1, 3) and dup.values == ("a", "b")
    assert kv.values["driver"] == "a"


# ---------------------------------------------------------------- JSON


def test_json_syntax_error_has_line_and_column() -> None:
    doc = parse_json('{\n  "claim": "x",\n  "device" "gpu-0"\n}', "claim.json")
    assert doc.problem is not None
    assert doc.problem.startswith("claim.json is not valid JSON: Expecting ':' delimiter")
    assert "line 3, column 12" in doc.problem


def test_json_duplicate_keys_and_nan() -> None:
    doc = parse_json('{"claim": "a", "claim": "b"}', "claim.json")
    assert doc.ok and doc.duplicates == ("claim",) and doc.value == {"claim": "a"}
    assert not parse_json('{"free_devices": NaN}', "report.json").ok


# ---------------------------------------------------------------- YAML


def test_yaml_syntax_error_has_line() -> None:
    docs = parse_yaml("kind: Pod\nmetadata:\n  name: dra-1\n\tspec: {}\n", "one.yaml")
    assert docs.problem is not None and docs.problem.key == "yaml.syntax"
    assert "line 4" in docs.problem


def test_yaml_duplicate_key_has_line() -> None:
    text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n"
    docs = parse_yaml(text, "one.yaml")
    assert docs.problem is not None
    assert "'name' appears twice" in docs.problem and "line 5" in docs.problem


def test_yaml_multi_document_objects_and_others() -> None:
    text = (
        "---\napiVersion: v1\nkind: Pod\nmetadata: {name: dra-1, namespace: dra-lab}\n"
        "---\n---\n- just\n- a list\n"
        "---\napiVersion: v1\nkind: List\nitems:\n"
        "- {apiVersion: v1, kind: Pod, metadata: {name: dra-7}}\n"
        "---\nkind: Pod\n"
    )
    docs = parse_yaml(text, "pick.yaml")
    assert docs.ok
    assert [(o.kind, o.name, o.namespace) for o in docs.objects] == [
        ("Pod", "dra-1", "dra-lab"),
        ("Pod", "dra-7", ""),
    ]
    assert [o.key for o in docs.others] == ["yaml.not_object", "yaml.no_kind"]
    assert docs.objects[0].line == 2


def test_yaml_with_no_objects() -> None:
    docs = parse_yaml("# nothing yet\n---\n", "two.yaml")
    assert docs.problem == "two.yaml declares no objects"


def test_checked_in_samples_give_their_precise_problems() -> None:
    got = {p.name: read_file(p) for p in sorted(SAMPLES.iterdir()) if p.is_file()}
    assert got["latin1-slices.txt"].status == "not-utf8"
    assert got["bom-crlf-slices.txt"].ok
    tabbed = parse_yaml(got["tab-indented.yaml"].text, "one.yaml")
    assert tabbed.problem is not None and "line" in tabbed.problem
    broken = parse_json(got["trailing-comma.json"].text, "report.json")
    assert broken.problem is not None and "line 4" in broken.problem


def test_catalog_placeholders_match_in_both_languages() -> None:
    import string

    def fields(template: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f}

    for key, (en, ko) in MESSAGES.items():
        assert fields(en) == fields(ko), key


# ---------------------------------------------------------------- arbitrary bytes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2048))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    read = decode("any", Path("any"), data)
    assert read.ok or read.problem
    if read.ok:
        parse_key_values(read.text)
        parse_json(read.text, "any.json")
        parse_yaml(read.text, "any.yaml")


_YAMLISH = st.lists(
    st.sampled_from(
        [
            "a:",
            " b",
            "- c",
            "---",
            "&x",
            "*x",
            "{",
            "}",
            "[",
            "]",
            ":",
            "!!str",
            "'",
            '"',
            "\t",
            "\n",
            "kind: Pod",
            "apiVersion: v1",
            "metadata:",
            "  name: x",
            "<<: *x",
            "? k",
            "%YAML",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_YAMLISH)
def test_yaml_like_text_never_raises(text: str) -> None:
    docs = parse_yaml(text, "x.yaml")
    assert docs.ok or docs.problem


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=512))
def test_read_file_never_raises_on_arbitrary_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "claim.json"
    path.write_bytes(data)
    got = read_file(path)
    assert got.ok or got.problem
