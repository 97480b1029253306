"""A keymap entry that takes a key another binding holds (issue 26, part 6): refused and
reported as one line, so neither binding is lost (pure: config.py, no Textual)."""

from __future__ import annotations

from pathlib import Path

from gsb_tui.config import KeyHolder, UserConfig, load_config, refuse_clashes

EVERYWHERE = frozenset({"dashboard", "view", "selector"})
HOLDERS = {
    "gsb.quit": KeyHolder(("q",), EVERYWHERE),  # the App's: works everywhere
    "gsb.selector": KeyHolder(("s",), frozenset({"dashboard"})),
    "gsb.yaml": KeyHolder(("y",), frozenset({"dashboard"})),
    "gsb.describe": KeyHolder(("d",), frozenset({"dashboard"})),
    "gsb.view.close": KeyHolder(("escape", "q"), frozenset({"view"})),
    "gsb.view.copy": KeyHolder(("c",), frozenset({"view"})),
    "gsb.help": KeyHolder(("question_mark",), EVERYWHERE),
}


def _name(key: str) -> str:
    return {"?": "question_mark"}.get(key, key)


def _load(tmp_path: Path, body: str) -> UserConfig:
    path = tmp_path / "config.toml"
    path.write_text("[keymap]\n" + body, encoding="utf-8")
    return load_config(path, holders=HOLDERS, normalize=_name)


def test_a_key_another_binding_holds_is_refused_and_said(tmp_path: Path) -> None:
    config = _load(tmp_path, '"gsb.quit" = "s"\n')
    assert config.keymap == {}  # q still quits, s still opens the selector
    assert len(config.problems) == 1
    line = config.problems[0]
    assert line.startswith(f"{tmp_path / 'config.toml'}: [keymap] 'gsb.quit' asks for 's'")
    assert "gsb.selector already uses" in line
    assert "gsb.selector" in line.ko and "무시하고" in line.ko


def test_the_reverse_clash_too(tmp_path: Path) -> None:
    config = _load(tmp_path, '"gsb.selector" = "q"\n')
    assert config.keymap == {} and "gsb.quit already uses" in config.problems[0]


def test_keys_moved_away_by_their_own_entry_are_free(tmp_path: Path) -> None:
    config = _load(tmp_path, '"gsb.quit" = "s"\n"gsb.selector" = "x"\n')
    assert config.keymap == {"gsb.quit": "s", "gsb.selector": "x"} and config.problems == []


def test_a_swap_is_no_clash(tmp_path: Path) -> None:
    config = _load(tmp_path, '"gsb.yaml" = "d"\n"gsb.describe" = "y"\n')
    assert config.keymap == {"gsb.yaml": "d", "gsb.describe": "y"} and config.problems == []


def test_restating_a_default_key_is_no_clash(tmp_path: Path) -> None:
    """README's example: q was quit's already; the views' own q (close) stays as it was."""
    config = _load(tmp_path, '"gsb.quit" = "q,ctrl+q"\n"gsb.help" = "h,?"\n')
    assert config.keymap == {"gsb.quit": "q,ctrl+q", "gsb.help": "h,?"}
    assert config.problems == []


def test_bindings_that_never_work_together_may_share_a_key(tmp_path: Path) -> None:
    config = _load(tmp_path, '"gsb.view.copy" = "y"\n')  # y is the dashboard's, c the view's
    assert config.keymap == {"gsb.view.copy": "y"} and config.problems == []


def test_keys_are_compared_as_textual_names_them(tmp_path: Path) -> None:
    config = _load(tmp_path, '"gsb.yaml" = "?"\n')
    assert config.keymap == {} and "gsb.help already uses" in config.problems[0]


def test_a_refusal_that_gives_a_key_back_is_checked_again(tmp_path: Path) -> None:
    """quit refused keeps q; then selector's new q clashes with it and is refused too."""
    config = _load(tmp_path, '"gsb.quit" = "s"\n"gsb.selector" = "q"\n')
    # A swap across contexts: s and q change hands, no binding is left without a key.
    assert config.keymap == {"gsb.quit": "s", "gsb.selector": "q"}
    config = refuse_clashes(
        UserConfig({"gsb.quit": "y", "gsb.selector": "q"}), Path("c.toml"), HOLDERS, _name
    )
    assert config.keymap == {}  # quit takes y (refused), then q is quit's again (refused)
    assert len(config.problems) == 2


def test_other_problems_stay_and_unknown_ids_are_still_reported(tmp_path: Path) -> None:
    config = _load(tmp_path, '"gsb.nope" = "n"\n"gsb.quit" = "s"\n"gsb.help" = "h"\n')
    assert config.keymap == {"gsb.help": "h"}
    assert "'gsb.nope' is not a binding id" in config.problems[0]
    assert "'gsb.quit' asks for 's'" in config.problems[1]
