"""Semantic versions as the API server's CEL `semver()` reads them (blang/semver v4 rules).

Version attributes (`{"version": "1.0.0"}`) reach CEL selectors as these objects, so
`device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('0.9.0'))` works.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

_NUMBERS = set("0123456789")
_ALPHANUM = _NUMBERS | set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-")


class SemverError(ValueError):
    """Not a semantic version; the message is blang/semver's."""


def _go_quote(text: str) -> str:
    """Go's %q for the texts blang/semver quotes (double quotes, escapes)."""
    return json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class Semver:
    major: int
    minor: int
    patch: int
    pre: tuple[int | str, ...] = ()
    build: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.pre:
            text += "-" + ".".join(str(p) for p in self.pre)
        if self.build:
            text += "+" + ".".join(self.build)
        return text

    def compare(self, other: Semver) -> int:
        """Precedence as in semver 2.0: build metadata is ignored."""
        mine = (self.major, self.minor, self.patch)
        theirs = (other.major, other.minor, other.patch)
        if mine != theirs:
            return 1 if mine > theirs else -1
        if not self.pre or not other.pre:
            # A release outranks any of its pre-releases.
            return (not self.pre) - (not other.pre)
        for a, b in zip(self.pre, other.pre, strict=False):
            if a == b:
                continue
            if isinstance(a, int) and isinstance(b, int):
                return 1 if a > b else -1
            if isinstance(a, int):  # numeric identifiers rank below alphanumeric ones
                return -1
            if isinstance(b, int):
                return 1
            return 1 if a > b else -1
        return (len(self.pre) > len(other.pre)) - (len(self.pre) < len(other.pre))


def _number(part: str, what: str) -> int:
    if not set(part) <= _NUMBERS:
        raise SemverError(f"Invalid character(s) found in {what} number {_go_quote(part)}")
    if len(part) > 1 and part[0] == "0":
        raise SemverError(
            f"{what.capitalize()} number must not contain leading zeroes {_go_quote(part)}"
        )
    if not part:
        raise SemverError(f'strconv.ParseUint: parsing "": invalid syntax ({what} number)')
    return int(part)


def _prerelease(part: str) -> int | str:
    if not part:
        raise SemverError("Prerelease is empty")
    if set(part) <= _NUMBERS:
        if len(part) > 1 and part[0] == "0":
            raise SemverError(
                f"Numeric PreRelease version must not contain leading zeroes {_go_quote(part)}"
            )
        return int(part)
    if set(part) <= _ALPHANUM:
        return part
    raise SemverError(f"Invalid character(s) found in prerelease {_go_quote(part)}")


def parse_semver(text: str, normalize: bool = False) -> Semver:
    """semver(text) / semver(text, true) in Kubernetes CEL; raises SemverError."""
    if normalize:
        text = _normalize(text)
    if not text:
        raise SemverError("Version string empty")
    parts = text.split(".", 2)
    if len(parts) != 3:
        raise SemverError("No Major.Minor.Patch elements found")
    major = _number(parts[0], "major")
    minor = _number(parts[1], "minor")
    rest, build_text, build_given = parts[2], "", False
    if "+" in rest:
        rest, build_text = rest.split("+", 1)
        build_given = True
    pre_text, pre_given = "", False
    if "-" in rest:
        rest, pre_text = rest.split("-", 1)
        pre_given = True
    patch = _number(rest, "patch")
    pre = tuple(_prerelease(p) for p in pre_text.split(".")) if pre_given else ()
    build: tuple[str, ...] = ()
    if build_given:
        for item in build_text.split("."):
            if not item:
                raise SemverError("Build meta data is empty")
            if not set(item) <= _ALPHANUM:
                raise SemverError(
                    f"Invalid character(s) found in build meta data {_go_quote(item)}"
                )
        build = tuple(build_text.split("."))
    return Semver(major, minor, patch, pre, build)


def _normalize(text: str) -> str:
    """Drop a leading "v" and leading zeros, fill in a missing minor/patch (semver(s, true))."""
    text = text.removeprefix("v")
    parts = text.split(".", 2)
    for i, part in enumerate(parts):
        if len(part) > 1:
            part = part.lstrip("0")
            if not part or part[0] not in _NUMBERS:
                part = "0" + part
            parts[i] = part
    if len(parts) < 3:
        if any(c in parts[-1] for c in "+-"):
            raise SemverError("short version cannot contain PreRelease/Build meta data")
        parts += ["0"] * (3 - len(parts))
    return ".".join(parts)


def is_semver(text: str, normalize: bool = False) -> bool:
    try:
        parse_semver(text, normalize)
    except SemverError:
        return False
    return True
