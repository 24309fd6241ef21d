"""python -m dealerbutton_host.bench.net runs the firmware's Net under the unix port and
prints its figures (what they are is for the manual, not asserted here)."""

from dealerbutton_host.bench import net


def test_netbench_prints_its_three_figures(capsys):
    assert net.main(["--calls", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Pico W publishing, micropython unix port (best of 5 x 200 ticks, 10")
    names = [line[:14].strip() for line in out[2:]]
    assert names == ["idle tick", "offline tick", "state message"], out
    for line in out[2:]:
        unix_us, per_call = line[14:].split()[:2]
        assert float(unix_us) > 0 and int(per_call) >= 0, line
