"""Deck files: the presets presentation mode steps through."""

from __future__ import annotations

import json

import pytest

from kfdviz import deck, presets


def test_default_deck_is_the_papers_figures_in_table_order():
    names = deck.default_deck()
    assert names == [n for n in deck.PAPER_ORDER if n in presets.PRESETS]
    assert set(names) == set(presets.names()) - {"default"}


def test_round_trip(tmp_path):
    path = tmp_path / "talk.kfddeck"
    deck.save_deck(path, ["koc-iris", "default", "koc-iris"], title="Lecture 3")
    document = json.loads(path.read_text())
    assert document["format"] == "kfdviz-deck" and document["title"] == "Lecture 3"
    assert deck.load_deck(path) == ["koc-iris", "default", "koc-iris"]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a kfdviz deck"),
        ('{"format": "kfdviz-deck", "format_version": 9, "presets": []}', "version 9"),
        ('{"format": "kfdviz-deck", "format_version": 1, "presets": ["nope"]}', "'nope'"),
        ('{"format": "kfdviz-deck", "format_version": 1, "presets": []}', "empty"),
        ('{"format": "kfdviz-deck", "format_version": 1, "presets": "default"}', "list"),
    ],
)
def test_bad_decks_are_refused_with_the_reason(tmp_path, text, fragment):
    path = tmp_path / "bad.kfddeck"
    path.write_text(text)
    with pytest.raises(deck.DeckError, match=fragment):
        deck.load_deck(path)


def test_a_failed_save_keeps_the_old_file(tmp_path):
    path = tmp_path / "talk.kfddeck"
    deck.save_deck(path, ["default"])
    with pytest.raises(deck.DeckError):
        deck.save_deck(path, ["nope"])
    assert deck.load_deck(path) == ["default"]
    with pytest.raises(deck.DeckError, match="missing"):
        deck.load_deck(tmp_path / "missing.kfddeck")
