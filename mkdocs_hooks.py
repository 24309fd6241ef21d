"""The manual's pages that live elsewhere in the repository, published as they are.

mkdocs.yml names this file under `hooks:`. RULES.md and PROTOCOL.md stay beside the
firmware, hardware/README.md beside the hardware files, README.md and CONTRIBUTING.md at
the top: each is added to the site from where it is (one source, never a copy), and every
page's links are written as they work in the repository (`../firmware/dealerbutton/rules/RULES.md`
from docs/, `docs/using.md` from README.md). Here those links become the site's: a page of
the site, a file of docs/, or any other file of the repository, which is then published
beside the pages at its own path (the ring's picture, for one). A link to nothing in the
repository is left alone, and `mkdocs build --strict` stops on it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent

# Repository path -> the page it is on the site.
PAGES = {
    "README.md": "index.md",
    "CONTRIBUTING.md": "contributing.md",
    "firmware/dealerbutton/rules/RULES.md": "rules.md",
    "firmware/dealerbutton/PROTOCOL.md": "protocol.md",
    "hardware/README.md": "hardware.md",
}
DOCS = "docs/"

_CODE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$|`[^`\n]*`", re.S | re.M)
_LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\))")


def _repo_path(src_uri: str) -> str:
    """Where the page or file at src_uri lives in the repository."""
    for repo, site in PAGES.items():
        if site == src_uri:
            return repo
    return DOCS + src_uri


def _site_path(repo: str) -> str:
    """The site's path of a repository file."""
    if repo in PAGES:
        return PAGES[repo]
    if repo.startswith(DOCS):
        return repo[len(DOCS):]
    return repo


def _external(target: str) -> bool:
    """A link that is not to a file of the repository: a URL, an anchor of the same page,
    a path from the site's root."""
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target)) or target.startswith(("#", "/"))


def _linked(markdown: str, page_repo: str):
    """The repository path of every file a page links (code left out)."""
    found: list = []
    _outside_code(markdown, lambda text: found.extend(_LINK.findall(text)) or text)
    for _open, target, _close in found:
        if not _external(target):
            path = target.partition("#")[0]
            yield posixpath.normpath(posixpath.join(posixpath.dirname(page_repo), path))


def on_files(files: Files, config) -> Files:
    """The pages from elsewhere, and every repository file a page links that is not in
    docs/ (published at its repository path)."""
    for repo, site in PAGES.items():
        files.append(File.generated(config, site, abs_src_path=str(ROOT / repo)))
    wanted = set()
    for f in list(files.documentation_pages()):
        markdown = Path(f.abs_src_path).read_text(encoding="utf-8")
        for repo in _linked(markdown, _repo_path(f.src_uri)):
            if repo not in PAGES and not repo.startswith(DOCS) and (ROOT / repo).is_file():
                wanted.add(repo)
    for repo in sorted(wanted):
        if files.get_file_from_path(repo) is None:
            files.append(File.generated(config, repo, abs_src_path=str(ROOT / repo)))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """A page's links, from the repository's paths to the site's."""
    here = page.file.src_uri
    page_repo = _repo_path(here)

    def relink(m: re.Match) -> str:
        target = m.group(2)
        if _external(target):
            return m.group(0)
        path, hash_, anchor = target.partition("#")
        repo = posixpath.normpath(posixpath.join(posixpath.dirname(page_repo), path))
        if not (ROOT / repo).exists():
            return m.group(0)
        site = posixpath.relpath(_site_path(repo), posixpath.dirname(here) or ".")
        return m.group(1) + site + hash_ + anchor + m.group(3)

    return _outside_code(markdown, lambda text: _LINK.sub(relink, text))


def _outside_code(markdown: str, change) -> str:
    """change(text) applied to markdown with its code blocks and spans held back (a link's
    text may hold a code span: it is held back as a placeholder and put back after)."""
    held: list = []

    def hold(m: re.Match) -> str:
        held.append(m.group(0))
        return "\x00%d\x00" % (len(held) - 1)

    text = change(_CODE.sub(hold, markdown))
    return re.sub("\x00(\\d+)\x00", lambda m: held[int(m.group(1))], text)
