"""Version numbers such as 1.10.2."""


def compare(a, b):
    """-1, 0 or 1 as version a is older than, the same as, or newer than b."""
    if a == b:
        return 0
    return -1 if a < b else 1
