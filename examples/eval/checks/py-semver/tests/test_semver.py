import unittest

from semver import compare


class CompareTest(unittest.TestCase):
    def test_equal(self):
        self.assertEqual(compare("1.2.3", "1.2.3"), 0)

    def test_numeric_parts(self):
        self.assertEqual(compare("1.10.0", "1.9.0"), 1)
        self.assertEqual(compare("2.0.0", "10.0.0"), -1)

    def test_missing_parts_are_zero(self):
        self.assertEqual(compare("1.2", "1.2.0"), 0)
        self.assertEqual(compare("1.2", "1.2.1"), -1)


if __name__ == "__main__":
    unittest.main()
