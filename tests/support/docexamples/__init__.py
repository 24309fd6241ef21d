"""The manual's examples as tests: Sybil collects them from the pages (the root conftest.py)
with the parsers of this package, one a kind of example.

- ``python`` blocks followed by "prints" and a block of output (``pyprints.py``): run in
  order in one namespace per page, as a reader running them one after the other would.
- shell sessions (``shell.py``): a block whose first line begins with ``$ ``; each command
  runs in bash from the top of the checkout and must print the lines under it.
- protocol sessions (``protocol.py``): a block after ``<!-- checked: OPTIONS -->``; the
  lines after ``> `` are sent to the emulator (``python -m dealerbutton.board.unix OPTIONS``),
  the others are its answer. Replayed on CPython and on MicroPython.
- the worked examples of RULES.md (``rulestables.py``): ``table`` blocks, replayed by
  ``rules_document.run`` on CPython and on MicroPython.

A block that is none of these, or one left out on purpose, carries
``<!-- not run: why -->`` on the line before it (``pages.py``); the test of
tests/host/test_docs_examples.py fails on any other block that shows output.
"""
