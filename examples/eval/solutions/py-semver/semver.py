"""Version numbers such as 1.10.2."""


def _parts(version):
    return [int(part) for part in version.split(".")]


def compare(a, b):
    """-1, 0 or 1 as version a is older than, the same as, or newer than b (parts compare as numbers)."""
    left, right = _parts(a), _parts(b)
    width = max(len(left), len(right))
    left += [0] * (width - len(left))
    right += [0] * (width - len(right))
    return (left > right) - (left < right)
