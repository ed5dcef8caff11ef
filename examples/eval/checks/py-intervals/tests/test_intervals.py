import unittest

from intervals import merge


class MergeTest(unittest.TestCase):
    def test_overlapping(self):
        self.assertEqual(merge([[1, 3], [2, 5], [7, 8]]), [[1, 5], [7, 8]])

    def test_touching(self):
        self.assertEqual(merge([[1, 2], [2, 3]]), [[1, 3]])

    def test_unsorted(self):
        self.assertEqual(merge([[5, 6], [1, 2], [2, 4]]), [[1, 4], [5, 6]])

    def test_empty(self):
        self.assertEqual(merge([]), [])


if __name__ == "__main__":
    unittest.main()
