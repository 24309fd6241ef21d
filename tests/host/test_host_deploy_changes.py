"""`dealerbutton deploy` a second time after one change: it copies that one file and says
so in words that read right."""

from test_host_deploy import MODULES, MicroPythonBoard, run_deploy


def test_one_changed_file_is_copied_alone(tmp_path):
    board = MicroPythonBoard(tmp_path)
    try:
        target = tmp_path / "flash"
        rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--no-reset")
        assert rc == 0, out + err
        assert "%d files copied, 0 removed, 0 up to date" % (len(MODULES) + 2) in out
        config = tmp_path / "six.json"
        config.write_text('{"seats": 6}\n')
        rc, out, err = run_deploy("--port", board.port, "--target", str(target), "--config",
                                  str(config), "--no-reset")
        assert rc == 0, out + err
        assert "[1/1] copied six.json -> %s (changed, 13 bytes)" % (target / "config.json") \
            in out
        assert out.splitlines()[-1] == "1 file copied, 0 removed, %d up to date" % (
            len(MODULES) + 1)
        assert (target / "config.json").read_text() == config.read_text()
    finally:
        board.close()


def test_the_config_is_named_as_typed_and_a_closed_pipe_is_quiet():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    cmd = [sys.executable, "-m", "dealerbutton_host.cli", "deploy", "--dry-run"]
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines()[0] == "config firmware/config.json: valid", proc.stdout
    # Read one line and close the pipe, as `| head -1` does: no traceback, exit 0.
    p = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0, err
    assert "Traceback" not in err, err
