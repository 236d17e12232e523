"""Recording a text's digests takes shortcuts only where they give the same digests (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.tools import provenance

# ASCII words and punctuation, and characters NFKC or case folding change (full-width letters, a
# diaeresis that becomes a space and a combining mark, the German sharp s, a ligature, odd spaces)
PIECES = st.sampled_from(["Rue", "lepic", "23", "a@b.com", "Paris.", "(x)", "'", "the", "\uff21\uff22", "\u00a8", "\u00df",
                          "\ufb01ne", "\u00a0", "\x1c", "\u2003", "\u0308", "\u0130", "K\u00e9", "..", " "])
TEXTS = st.lists(PIECES, max_size=14).map("".join) | st.text(max_size=40)


def reference_digests(text: str, longest: int) -> set[str]:
    """Every part of ``text`` as the provenance docstring defines it, each digest computed from scratch."""
    tokens = provenance._TOKEN.findall(text)
    words = [w for w in (provenance.normalize(t) for t in tokens) if w]
    found = {provenance.digest(piece) for token in tokens for piece in provenance._pieces(token)}
    found |= {provenance.digest(" ".join(words[i:i + n])) for i in range(len(words)) for n in range(1, longest + 1)
              if i + n <= len(words)}
    whole = provenance.digest(text) if provenance.normalize(text) else None
    return found | ({whole} if whole else set())


@settings(max_examples=400)
@given(TEXTS)
def test_the_digests_recorded_for_a_text_are_those_of_its_parts_normalized_from_scratch(text: str) -> None:
    assert provenance.text_digests([text]) == reference_digests(text, provenance.FIELD_WORDS)
