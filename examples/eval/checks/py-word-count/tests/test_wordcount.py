import unittest

from wordcount import count_words


class CountWordsTest(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(count_words("a b a"), {"a": 2, "b": 1})

    def test_case_and_punctuation(self):
        self.assertEqual(count_words("The cat. the CAT, the end!"), {"the": 3, "cat": 2, "end": 1})

    def test_apostrophes_stay(self):
        self.assertEqual(count_words("don't stop, don't"), {"don't": 2, "stop": 1})


if __name__ == "__main__":
    unittest.main()
