"""The README and the manual's pages: every file they link is in the repository, every
section they point to exists, every page of docs/ is in the site's nav, wherever they send
the reader to the rules or the protocol they link the project's own RULES.md and
PROTOCOL.md, and the README stays a short page without dated figures."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, ROOT / "CONTRIBUTING.md"] + sorted(DOCS.glob("*.md"))
NAMED = {"RULES.md": ROOT / "firmware" / "dealerbutton" / "rules" / "RULES.md",
         "PROTOCOL.md": ROOT / "firmware" / "dealerbutton" / "PROTOCOL.md"}


def ids(pages):
    return [str(p.relative_to(ROOT)) for p in pages]


def without_blocks(text):
    """A page without its fenced code blocks."""
    return re.sub(r"^[ \t]*```.*?^[ \t]*```", "", text, flags=re.S | re.M)


def prose(text):
    """A page without its code blocks and spans (examples may name files as they like)."""
    return re.sub(r"`[^`\n]*`", "", without_blocks(text))


def anchor(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings(path):
    return {anchor(h) for h in re.findall(r"^#+ (.*)$", without_blocks(path.read_text()),
                                          re.M)}


def links(path):
    """(target path or None for the page itself, anchor) of every link of a page that is not
    a URL."""
    out = []
    for target in re.findall(r"\]\(([^)\s]+)\)", without_blocks(path.read_text())):
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, hash_ = target.partition("#")
        out.append(((path.parent / file).resolve() if file else path, hash_))
    return out


def test_there_are_pages():
    assert len(PAGES) >= 12 and all(p.is_file() for p in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_every_linked_file_and_section_exists(page):
    found = links(page)
    assert found or page.stat().st_size < 2000, "a page of the manual that links nothing"
    for target, hash_ in found:
        assert target.exists(), (str(page), str(target))
        if hash_:
            assert target.suffix == ".md", (str(page), str(target), hash_)
            assert hash_ in headings(target), (str(page), str(target), hash_)


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_rules_and_protocol_are_linked_wherever_they_are_named(page):
    text = prose(page.read_text())
    for name, path in NAMED.items():
        link = r"\[[^\]]*\]\(([^)#\s]*%s)(#[\w-]+)?\)" % re.escape(name)
        for m in re.finditer(link, text):
            assert (page.parent / m.group(1)).resolve() == path, (str(page), m.group(0))
        bare = re.findall(r"[\w/.-]*%s" % re.escape(name), re.sub(link, "", text))
        assert bare == [], (str(page), name, bare)  # every other mention is a link


def test_the_readme_links_both_and_every_page_of_the_manual():
    targets = {t for t, _ in links(README)}
    for page in list(NAMED.values()) + sorted(DOCS.glob("*.md")) + [ROOT / "CONTRIBUTING.md"]:
        assert page.resolve() in targets, page


def test_every_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text().split("\nnav:", 1)[1]
    listed = set(re.findall(r":\s*([\w-]+\.md)\s*$", nav, re.M))
    assert {p.name for p in DOCS.glob("*.md")} <= listed, listed
    assert {"index.md", "rules.md", "protocol.md", "hardware.md", "contributing.md"} <= listed


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_no_count_of_tests_that_goes_stale(page):
    """The prose never says how many tests there are (the count changes with every test
    added); a time for the test command names the machine it was taken on. Transcripts
    (code blocks, fenced or indented) show what a command printed, as is."""
    text = prose(page.read_text())
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    flat = " ".join(text.split())
    counts = re.findall(r"\b\d[\d,]* (?:tests|passed)\b", flat)
    assert counts == [], counts
    for m in re.finditer(r"test command[^.]*?\b(\d+ min(?: \d+ s)?)", flat):
        sentence = flat[max(0, flat.rfind(".", 0, m.start()) + 1):flat.find(".", m.end())]
        assert re.search(r"\bcores?\b", sentence), sentence


def test_the_readme_is_short_and_has_no_dated_figures():
    """Figures go out of date: the README has none, the manual's pages have them with the
    day and the commit they were taken on."""
    text = README.read_text()
    assert len(text.splitlines()) <= 150
    months = "January|February|March|April|May|June|July|August|September|October|November|December"
    assert not re.search(r"\b(%s)\b|\b20\d\d\b" % months, text)
    figures = re.findall(r"\b\d+(?:\.\d+)? ?(?:ms|us|KB|MB|%)(?!\w)", prose(text))
    assert figures == [], figures
