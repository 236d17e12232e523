"""Optional sentence embeddings for System 1: WordLlama's static token embeddings.

WordLlama (``pip install dialstack[embeddings]``) ships its 16 MB of weights inside its wheel;
they are loaded from the installed package folder and never downloaded. Without it,
``load_embedder()`` returns None and understanding runs on its lexical signals alone.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

DISABLE_ENV = "DIALSTACK_NO_EMBEDDINGS"  # set to 1 to measure or run on the lexical signals alone


class Embedder(Protocol):
    def embed(self, texts: Sequence[str]) -> Any:
        """One L2-normalised row per text (a numpy array)."""

    def is_word(self, word: str) -> bool:
        """Whether ``word`` is a common word of the language as written (not a typo)."""


_ENDINGS = ("est", "er", "ing", "ed", "es", "s", "ly", "ness", "ment", "able")


class WordLlamaEmbedder:
    def __init__(self, model: Any) -> None:
        self.model = model

    def embed(self, texts: Sequence[str]) -> Any:
        return self.model.embed(list(texts), norm=True)

    @lru_cache(maxsize=8192)  # noqa: B019 - one embedder lives as long as the process
    def is_word(self, word: str) -> bool:
        """A word the model's tokenizer holds whole ('found', 'chance'): typos ('bostn', 'bookng')
        break into pieces. The tokenizer writes a space before a word as a piece of its own."""
        if self._whole(word):
            return True
        # 'cheapest', 'rebooking': a word held whole with a common ending
        return any(word.endswith(end) and len(word) - len(end) >= 3 and (self._whole(word[: -len(end)])
                                                                          or self._whole(word[: -len(end)] + "e"))
                   for end in _ENDINGS)

    def _whole(self, word: str) -> bool:
        return len(self.model.tokenizer.encode(" " + word, add_special_tokens=False).ids) <= 2


@lru_cache(maxsize=1)
def load_embedder() -> Embedder | None:
    """The packaged WordLlama model, or None when it is not installed (or disabled)."""
    if os.environ.get(DISABLE_ENV, "").strip() not in ("", "0"):
        return None
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError:
        return None
    folder = Path(wordllama.__file__).parent
    model = WordLlama.load(cache_dir=folder, disable_download=True)
    return WordLlamaEmbedder(model)
