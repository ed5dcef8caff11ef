#!/bin/bash
# Reference solution: runs in the workspace.
cat > brackets.py <<'PY'
"""Bracket matching."""

PAIRS = {")": "(", "]": "[", "}": "{"}


def is_balanced(text):
    """True when the brackets in text are properly nested."""
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in PAIRS:
            if not stack or stack.pop() != PAIRS[ch]:
                return False
    return not stack
PY
