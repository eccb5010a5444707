"""The settings' "did you mean": the known name most like a mistyped property or keyword,
compared word by word (the dotted or snake-case words), for the error that refuses it."""

from __future__ import annotations

import difflib
import re

_WORD = re.compile(r"[._\-]+")


def _suggest(name: str, known) -> str:
    """`` (did you mean 'x'?)`` for the known name most like ``name`` by its dotted (or
    snake-case) words, when one is alike enough; else ""."""
    best, score = None, (0.7, 0.0)
    for candidate in sorted(set(known)):
        # ties (the same words in another order) go to the most alike whole name
        likeness = (
            _likeness(name, candidate),
            difflib.SequenceMatcher(None, name, candidate).ratio(),
        )
        if likeness[0] > 0.7 and likeness > score:
            best, score = candidate, likeness
    return f" (did you mean {best!r}?)" if best else ""


def _likeness(name: str, known: str) -> float:
    typed, words = _words(name), _words(known)
    score = _word_score(typed, words)
    # the same letters with the dots dropped or moved ("lingerms", "enableauto.commit")
    joined = difflib.SequenceMatcher(None, "".join(typed), "".join(words)).ratio()
    return max(score, joined if joined >= 0.9 else 0.0)


def _words(name: str) -> list[str]:
    return [w for w in _WORD.split(name.lower()) if w]


def _word_score(typed: list[str], known: list[str]) -> float:
    """How alike two names are word by word: each typed word matched to the most alike
    unmatched known word (difflib's ratio, 0.75 at least to count; for words of up to three
    letters, one letter wrong after the same first letter counts: "mz" for "ms"), as 2 * the
    matched likeness / all the words of both (1: the same words, in any order)."""
    if not typed or not known:
        return 0.0
    left = list(known)
    total = 0.0
    for word in typed:
        best, score = None, 0.75
        for candidate in left:
            ratio = (
                1.0 if candidate == word else difflib.SequenceMatcher(None, word, candidate).ratio()
            )
            if _one_letter_off(word, candidate):
                ratio = max(ratio, 0.75)
            if ratio >= score:
                best, score = candidate, ratio
        if best is not None:
            left.remove(best)
            total += score
    return 2 * total / (len(typed) + len(known))


def _one_letter_off(word: str, other: str) -> bool:
    """Short words (units, "id", "max") the same but for one letter, not the first."""
    if len(word) != len(other) or len(word) > 3 or word[0] != other[0]:
        return False
    return sum(a != b for a, b in zip(word, other, strict=True)) == 1
