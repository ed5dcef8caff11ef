import sys
import unittest

sys.path.insert(0, "/app")
from brackets import is_balanced  # noqa: E402


class BalancedTest(unittest.TestCase):
    def test_nested(self):
        self.assertTrue(is_balanced("{[()()]}"))
        self.assertTrue(is_balanced("f(a[0]) { return; }"))

    def test_wrong_order(self):
        self.assertFalse(is_balanced("([)]"))
        self.assertFalse(is_balanced("{(})"))

    def test_unclosed(self):
        self.assertFalse(is_balanced("(("))
        self.assertFalse(is_balanced(")("))


if __name__ == "__main__":
    unittest.main()
