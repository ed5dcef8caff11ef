"""Bracket matching."""

PAIRS = {")": "(", "]": "[", "}": "{"}


def is_balanced(text):
    """True when every bracket in text is closed."""
    counts = {"(": 0, "[": 0, "{": 0}
    for ch in text:
        if ch in counts:
            counts[ch] += 1
        elif ch in PAIRS:
            counts[PAIRS[ch]] -= 1
            if counts[PAIRS[ch]] < 0:
                return False
    return all(count == 0 for count in counts.values())
