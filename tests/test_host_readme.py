"""The README's links lead somewhere: every file it links is in the repository, every
section it points to exists, and wherever it sends the reader to the rules or the
protocol it links the project's own RULES.md and PROTOCOL.md."""

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"


def prose(text):
    """The README without its code blocks (examples may name files as they like)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_linked_file_and_section_exists():
    text = prose(README.read_text())
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    headings = {anchor(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}
    for target in links:
        if target.startswith(("http://", "https://")):
            continue
        if target.startswith("#"):
            assert target[1:] in headings, target
        else:
            assert (ROOT / target.split("#")[0]).exists(), target


def test_rules_and_protocol_are_linked_wherever_they_are_named():
    text = prose(README.read_text())
    for name in ("RULES.md", "PROTOCOL.md"):
        link = r"\[[^\]]*\]\(firmware/dealerbutton/%s(#[\w-]+)?\)" % re.escape(name)
        assert re.search(link, text), name
        bare = re.findall(r"[\w/.-]*%s" % re.escape(name), re.sub(link, "", text))
        assert bare == [], (name, bare)  # every other mention is a link
        assert (ROOT / "firmware" / "dealerbutton" / name).is_file()


def test_no_count_of_tests_that_goes_stale():
    """The README's prose never says how many tests there are (the count changes with
    every test added); a time for the test command names the machine it was taken on.
    Transcripts (code blocks, fenced or indented) show what a command printed, as is."""
    text = prose(README.read_text())
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    flat = " ".join(text.split())
    counts = re.findall(r"\b\d[\d,]* (?:tests|passed)\b", flat)
    assert counts == [], counts
    for m in re.finditer(r"test command[^.]*?\b(\d+ min(?: \d+ s)?)", flat):
        sentence = flat[max(0, flat.rfind(".", 0, m.start()) + 1):flat.find(".", m.end())]
        assert re.search(r"\bcores?\b", sentence), sentence
