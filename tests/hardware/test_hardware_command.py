"""`dealerbutton hardware build`: what it writes and says, its refusals in one line, and the
manual's Build one page, whose tables and pictures are what the command makes now."""

import re

import pytest
from hardware_rig import ROOT, as_result

pytestmark = pytest.mark.xdist_group("hardware")

PARTS = ["centre-24-base", "centre-24-top", "centre-60-base", "centre-60-top", "pod-tact",
         "pod-arcade"]
PICTURES = PARTS + ["centre-24", "centre-60", "pod-tact-assembled", "pod-arcade-assembled"]


def test_it_writes_every_part_picture_and_bill(built):
    for name in PARTS:
        for ext in (".stl", ".step", ".png"):
            assert (built.out / (name + ext)).stat().st_size > 1000, name + ext
    for name in PICTURES:
        assert (built.out / (name + ".png")).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for ring in ("24", "60"):
        assert (built.out / ("bom-%s.csv" % ring)).read_text().startswith(
            "item,qty,what,gpio,pico_pin,cable_m\n")


def test_it_says_what_it_makes_as_it_goes(built):
    lines = built.lines
    assert lines[0].startswith("dealerbutton hardware: building the 24-LED ring's centre unit")
    made = [line.split()[0] for line in lines[1:] if " built in " in line]
    assert made == PARTS
    assert all(re.search(r"built in [\d.]+ s, [\d.]+ cm3, \d+ x \d+ x \d+ mm; STL, STEP; "
                         r"picture in [\d.]+ s$", line) for line in lines if "built in" in line)
    assert lines[-1] == ("dealerbutton hardware: 6 parts, 10 pictures, 2 bills of materials "
                         "in %s" % built.out)


def run(args, capsys):
    from dealerbutton_host.cli import main

    code = main(["hardware", "build"] + args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args,message", [
    (["--table-width", "0.2"], "--table-width 0.2 m: give the table's width in metres, 0.5 to 3"),
    (["--table-length", "1.0"], "--table-length 1 m: give the table's length in metres, from "
                                "its width (1.2) to 6"),
    (["--manual", "--ring", "24"], "--manual writes the manual's page from the default build: "
                                   "leave out --ring"),
])
def test_a_bad_value_is_one_line_and_status_2(args, message, capsys, tmp_path):
    code, out, err = run(args + ["--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.splitlines() == ["dealerbutton hardware: " + message]
    assert not (tmp_path / "o").exists()


def test_a_config_that_cannot_be_used_is_one_line(capsys, tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text('{"seats": 14}')
    code, out, err = run(["--config", str(bad), "--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.splitlines() == ["dealerbutton hardware: %s: seats must be a whole number "
                                "2..12, not 14" % bad]
    bad.write_text("{")
    code, out, err = run(["--config", str(bad), "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and len(err.splitlines()) == 1 and "not JSON" in err


def test_without_the_extra_it_says_the_pip_command(capsys, tmp_path, monkeypatch):
    from dealerbutton_host.hardware import cli

    monkeypatch.setattr(cli, "missing", lambda: ["build123d", "trimesh"])
    code, out, err = run(["--out", str(tmp_path / "o")], capsys)
    assert code == 2
    assert err.splitlines() == ["dealerbutton hardware: the printed parts need the hardware "
                                "extra (build123d, trimesh not installed): pip install -e "
                                "'.[hardware]'"]


def test_an_out_folder_that_cannot_be_made_is_one_line_and_status_1(capsys, tmp_path):
    (tmp_path / "file").write_text("")
    code, out, err = run(["--ring", "24", "--out", str(tmp_path / "file" / "o")], capsys)
    assert code == 1
    assert len(err.splitlines()) == 1 and "Not a directory" in err


def test_the_manual_page_is_what_the_command_writes_now(built):
    from dealerbutton_host.hardware import page

    request, result = as_result(built)
    text = (ROOT / page.PAGE).read_text()
    assert page.render(text, request, result, ROOT) == text, (
        "dealerbutton hardware build --manual writes the page again")
    assert set(page.BLOCKS) == set(re.findall(r"<!-- parts: ([\w-]+) -->", text))


def test_the_manual_shows_every_picture_as_the_command_draws_it_now(built):
    """The pictures in docs/parts/ are the command's: the same size, and all but a few
    pixels the same (a different processor may round a triangle's edge the other way)."""
    from matplotlib.image import imread

    text = (ROOT / "docs" / "build-one.md").read_text()
    for name in PICTURES:
        assert "(parts/%s.png)" % name in text, name
        committed = imread(ROOT / "docs" / "parts" / (name + ".png"))
        now = imread(built.out / (name + ".png"))
        assert committed.shape == now.shape, name
        differ = (abs(committed - now).max(axis=2) > 0.1).mean()
        assert differ < 0.002, (name, differ, "dealerbutton hardware build --manual draws "
                                "them again")
