"""The firmware package imports and says its version, on both runtimes."""
import two_runtimes


def test_version_is_a_dotted_triple():
    import dealerbutton

    parts = dealerbutton.VERSION.split(".")
    assert len(parts) == 3, dealerbutton.VERSION
    for p in parts:
        assert int(p) >= 0


if __name__ == "__main__":
    two_runtimes.run_all(globals())
