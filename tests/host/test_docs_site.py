"""The manual builds as a site: `mkdocs build --strict` (mkdocs.yml), which stops on a broken
link or anchor and on a page of docs/ missing from the nav; the pages that live elsewhere in
the repository (README.md, RULES.md, PROTOCOL.md, hardware/README.md, CONTRIBUTING.md) are
on the site, with their links made the site's, and the ring's picture with them."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
MKDOCS = Path(sys.executable).parent / "mkdocs"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if not MKDOCS.exists():
        why = "mkdocs is not installed (pip install -e '.[docs]')"
        if os.environ.get("CI") == "true":
            pytest.fail("CI: " + why)
        pytest.skip(why)
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def test_every_page_is_built(site):
    for page in ["index", "using", "ring", "tournaments", "rules", "rules-core", "host-tools",
                 "card-room", "browser", "hardware", "build-one", "circuitpython", "protocol",
                 "benchmarks", "reliability", "contributing"]:
        path = site / ("index.html" if page == "index" else page + "/index.html")
        assert path.is_file(), page


def test_the_pages_from_elsewhere_are_their_sources(site):
    """RULES.md on the site is firmware/dealerbutton/rules/RULES.md, not a copy: its last rule's
    words are there; the README is the home page and its links lead to the site's pages."""
    rules = (site / "rules" / "index.html").read_text()
    assert "Every event" in rules and "Table rules" in rules
    home = (site / "index.html").read_text()
    assert 'href="using/"' in home and 'href="rules/"' in home and 'href="contributing/"' in home
    assert 'src="hardware/ring-legend.svg"' in home
    assert (site / "hardware" / "ring-legend.svg").read_bytes() == (
        ROOT / "hardware" / "ring-legend.svg").read_bytes()
    assert 'href="docs/' not in home and 'href="firmware/' not in home


def test_a_broken_link_stops_the_strict_build(tmp_path):
    """The check that keeps the site whole can fail: a copy of the tree whose README links a
    page that is not there does not build."""
    if not MKDOCS.exists():
        pytest.skip("mkdocs is not installed")
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("mkdocs.yml", "mkdocs_hooks.py", "README.md", "CONTRIBUTING.md"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "docs", tree / "docs")
    shutil.copytree(ROOT / "hardware", tree / "hardware")
    shutil.copytree(ROOT / "firmware" / "dealerbutton", tree / "firmware" / "dealerbutton",
                    ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    readme = tree / "README.md"
    readme.write_text(readme.read_text() + "\nSee [the missing page](docs/missing.md).\n")
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(tmp_path / "s")],
                          cwd=tree, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert proc.returncode != 0
    assert "docs/missing.md" in proc.stdout + proc.stderr
