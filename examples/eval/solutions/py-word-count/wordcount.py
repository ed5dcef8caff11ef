"""Word frequencies."""

import re


def count_words(text):
    """How often each word occurs in text, ignoring case and punctuation (apostrophes stay)."""
    counts = {}
    for word in re.findall(r"[a-z0-9']+", text.lower()):
        word = word.strip("'")
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
