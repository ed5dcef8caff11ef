#!/bin/bash
# Harbor verifier: the workspace is at /app; the reward goes to /logs/verifier/reward.txt.
mkdir -p /logs/verifier
if python3 /tests/test_brackets.py; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
