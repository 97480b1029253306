"""`gsb-tui match 'EXPR' [--class NAME]`: which published devices a CEL selector admits.

One line per device: `<driver>/<pool>/<device> match|no-match|error: <text>`; with `--json` one
object {"expression", "class", "devices": [{driver, pool, device, node, verdict, error, state,
allocatable}], "matched", "free"}. "Free" is the ledger's (claims, counters, taints, taint
rules and pools read too). Objects with a field of the wrong type are read with it absent and
named on stderr ("malformed" in --json). Exit 0 on evaluation, 1 when the expression does not
compile (or the class is unknown), 2 when the cluster cannot be read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING, Any

from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.oneshot import Unreachable, fetch_snapshot
from gsb_tui.snapshot import Kind
from gsb_tui.words import localize, text

if TYPE_CHECKING:
    from gsb_tui.dra.cel import CelCompileError, CelOutcome

EXIT_BAD_EXPRESSION = 1
EXIT_UNREACHABLE = 2


def _with_driver(exc: CelCompileError, expression: str, target: Target) -> CelCompileError:
    """Recompile knowing the published driver, so the fix names its real domain."""
    from gsb_tui.dra.cel import CelCompileError, compile_selector

    try:
        snapshot = asyncio.run(fetch_snapshot(target, (Kind.SLICES,), timeout=3.0))
    except (KubeconfigError, Unreachable):
        return exc
    from gsb_tui.dra.model import parse_slice  # typed: a slice of any shape has a driver

    drivers = {parse_slice(s).driver for s in snapshot.items(Kind.SLICES)}
    if len(drivers) != 1:
        return exc
    try:
        compile_selector(expression, driver=drivers.pop())
    except CelCompileError as better:
        return better
    return exc


def _one_line(message: str) -> str:
    """An evaluation error on one line (a regex error spans several, with a caret line)."""
    lines = (line.strip() for line in message.splitlines())
    return " ".join(line for line in lines if line.strip("^~ "))


def _say(lang: str, key: str, **values: object) -> None:
    print(f"gsb-tui match: {text(lang, key, **values)}", file=sys.stderr)


def run_match(args: argparse.Namespace, target: Target, lang: str = "en") -> int:
    from gsb_tui.dra.cel import CelCompileError, compile_selector

    try:
        compile_selector(args.expression)
    except CelCompileError as exc:
        exc = _with_driver(exc, args.expression, target)
        _say(lang, "match.no-compile", message=exc.message)
        if exc.hint:
            print(text(lang, "match.hint", hint=localize(exc.hint, lang)), file=sys.stderr)
        if exc.fix:
            print(text(lang, "match.try", fix=exc.fix), file=sys.stderr)
        return EXIT_BAD_EXPRESSION
    kinds = (Kind.SLICES, Kind.CLASSES, Kind.CLAIMS, Kind.PODS, Kind.TAINT_RULES)
    try:
        snapshot = asyncio.run(fetch_snapshot(target, kinds))
    except (KubeconfigError, Unreachable) as exc:
        print(f"gsb-tui match: {localize(exc.text, lang)}", file=sys.stderr)
        return EXIT_UNREACHABLE
    for kind in (Kind.SLICES, Kind.CLASSES):
        state = snapshot.state(kind)
        if state.phase != "synced":
            _say(lang, "match.cannot-read", kind=kind.value, message=state.message)
            return EXIT_UNREACHABLE
    from gsb_tui.dra.builder import build_view
    from gsb_tui.dra.cel import evaluate_all
    from gsb_tui.dra.model.malformed import as_json

    view = build_view(snapshot)
    expressions = [args.expression]
    if args.device_class:
        device_class = view.classes.get(args.device_class)
        if device_class is None:
            known = ", ".join(sorted(view.classes)) or text(lang, "match.none")
            _say(lang, "match.no-class", name=args.device_class, known=known)
            return EXIT_BAD_EXPRESSION
        expressions = [*device_class.selectors, args.expression]
    malformed = [as_json(m, lang) for m in view.malformed()]  # read with the wrong field absent
    if not view.devices:
        if getattr(args, "json", False):
            empty = {"expression": args.expression, "class": args.device_class}
            empty["malformed"] = malformed
            print(json.dumps({**empty, "devices": [], "matched": 0, "free": 0}))
        _say(lang, "match.no-devices")
        _say_malformed(malformed, lang)
        return 0
    try:
        outcomes = evaluate_all(expressions, view.devices, session=view.memo.cel)
    except CelCompileError as exc:  # a class selector gsb-tui cannot evaluate
        print(f"gsb-tui match: {exc.message}", file=sys.stderr)
        return EXIT_BAD_EXPRESSION
    matched = [d.id for d in view.devices if outcomes[d.id].matched]
    blockers = view.blockers()
    free = [d for d in matched if d not in blockers]
    claims_state = snapshot.state(Kind.CLAIMS)
    held_known = claims_state.phase == "synced"  # without the claims, what is held is not known
    if getattr(args, "json", False):
        rows = [
            {
                "driver": d.id.driver,
                "pool": d.id.pool,
                "device": d.id.device,
                "node": d.node or None,
                "verdict": _verdict(outcomes[d.id]),
                "error": _one_line(str(outcomes[d.id].error)) or None,
                "state": view.state(d.id) if held_known else None,
                "allocatable": d.id not in blockers if held_known else None,
            }
            for d in view.devices
        ]
        out = {
            "expression": args.expression,
            "class": args.device_class,
            "devices": rows,
            "matched": len(matched),
            "free": len(free) if held_known else None,
            "malformed": malformed,
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    for device in view.devices:
        outcome = outcomes[device.id]
        verdict = _verdict(outcome)
        if verdict == "error":
            verdict = f"error: {_one_line(str(outcome.error))}"
        print(f"{device.id} {verdict}")
    # On stderr, so the one-line-per-device output stays as it is: how many of the matches
    # could be allocated now, and why not the rest (dra/availability.py decides).
    _say_malformed(malformed, lang)
    if not held_known:
        why = text(lang, "match.cannot-read", kind=Kind.CLAIMS.value, message=claims_state.message)
        print(text(lang, "match.free-unknown", matched=len(matched), why=why), file=sys.stderr)
        return 0
    print(text(lang, "match.summary", matched=len(matched), free=len(free)), file=sys.stderr)
    for group in view.blocker_groups(matched, blockers):
        names = ", ".join(d.device for d in group.devices[:8])
        why = text(
            lang,
            f"why.{group.reason}",
            n=len(group.devices),
            devices=names,
            detail=", ".join(group.cause),
        )
        print(f"  {why}", file=sys.stderr)
    return 0


def _say_malformed(malformed: list[dict[str, Any]], lang: str) -> None:
    """Objects with a field of the wrong type, on stderr: counted, then each named."""
    if malformed:
        print(text(lang, "malformed.count", n=len(malformed)), file=sys.stderr)
    for found in malformed:
        print(f"  ! {found['text']}", file=sys.stderr)


def _verdict(outcome: CelOutcome) -> str:
    return "error" if outcome.error else "match" if outcome.matched else "no-match"
