"""One record per library function (extensions.py): what the checker declares, what the
interpreter calls, its runtime cost and its estimate's shape all come from it, and nothing of
the core (types.py) is described twice."""

from __future__ import annotations

import pytest

from gsb_tui.dra.cel import call_costs, check, cost, cost_sizes, extensions, functions, syntax
from gsb_tui.dra.cel.call_sizes import one
from gsb_tui.dra.cel.interp import Program, device_value
from gsb_tui.dra.cel.string_ext import quote
from gsb_tui.dra.cel.types import FUNCTIONS as CORE
from gsb_tui.dra.cel.types import UNSUPPORTED

RECORDS = sorted(extensions.LIBRARY.values(), key=lambda f: f.name)


def test_every_part_of_a_library_function_is_its_records() -> None:
    assert RECORDS and not set(extensions.LIBRARY) & set(CORE) & set(UNSUPPORTED)
    for record in RECORDS:
        name = record.name
        assert extensions.DECLARED[name].overloads == list(record.overloads), name
        assert functions.FUNCTIONS[name] is extensions.IMPLEMENTED[name], name
        assert call_costs.CALL_COSTS.get(name, one) is record.cost, name
        assert extensions.SHAPES[name] == record.estimate, name
        assert record.estimate in cost_sizes._SHAPES, name
        assert not record.runtime or len(record.runtime) == len(record.overloads), name
    assert set(extensions.DECLARED) == set(CORE) | set(extensions.LIBRARY)


@pytest.mark.parametrize("record", RECORDS, ids=lambda f: f.name)
def test_a_wrong_runtime_type_is_no_such_overload(record: extensions.LibraryFunction) -> None:
    arity = len(record.overloads[0].params)
    with pytest.raises(Exception, match=f"no such overload: {record.name}"):
        functions.FUNCTIONS[record.name]([object()] * arity, record.overloads[0].member)


def test_a_record_decides_the_estimate_and_the_runtime_cost() -> None:
    expression = "'abcdefghijklmnopqrstuvwxyz'.upperAscii().lowerAscii() == 'x'"
    checked = check.check(syntax.parse(expression))
    estimated = cost.estimate(checked)
    program = Program(checked)
    assert program.run(device_value({})) is False
    # Each call traverses the 26-letter string (3 units), twice, and the comparison 1.
    assert (estimated.min, estimated.max) == (7, 7)


def test_strings_quote_escapes_as_cel_go_does() -> None:
    from cel.stdlib import EXTENSIONS  # the CEL library's own strings.quote, cel-go's port

    library = EXTENSIONS["strings"]["strings.quote"]
    for text in ['a"b', "\\", "\a\b\f\n\r\t\v", "é漢字", "x\x00\x7f\x1b", "", '""\\n']:
        assert quote(text) == library(text), text
    assert quote("\ud800x") == '"\ufffdx"'  # no valid rune: U+FFFD, as cel-go's sanitize
