"""The replay of RULES.md's worked examples (rules_document.run, which the manual's tests use
on every ``table`` block, tests/support/docexamples/rulestables.py) reads the events as the
commands do and catches a wrong answer, on CPython and MicroPython."""
import rules_document
import two_runtimes


def test_a_wrong_expectation_is_caught():
    lines = ["dead, 3 seats, 10/20", "sit 1 2 3", "deal 1",
             "  hand 1: button 1, SB 2, BB 3; dealt 2 3 1; posts 2: 10, 3: 20", "seat 3",
             "  seat 3: active, owes nothing"]
    assert rules_document.run(lines) == lines
    for i in (3, 5):
        bad = list(lines)
        bad[i] = bad[i].replace("3", "2")
        assert rules_document.run(bad) != bad, bad[i]
    bad = lines[:3] + lines[4:]  # an answer left out
    assert rules_document.run(bad) != bad


def test_events_and_refusals_read_like_the_commands():
    lines = ["moving, 4 seats, 5/10", "sit 1 2", "deal 3", "deal 1", "sit 3 post",
             "seat 3", "choose 3 wait", "seat 3 4", "leave 4", "undo", "seat 1"]
    assert rules_document.run(lines) == [
        "moving, 4 seats, 5/10", "sit 1 2", "deal 3",
        "  refused: seat 3 is empty: the first button goes to a player who drew for it",
        "deal 1", "  hand 1: button 1, SB 1, BB 2; dealt 2 1; posts 2: 10, 1: 5",
        "sit 3 post", "seat 3", "  seat 3: waiting (post), owes 10", "choose 3 wait",
        "seat 3 4", "  seat 3: waiting (wait), owes 10", "  seat 4: empty",
        "leave 4", "  refused: seat 4 is empty: nobody to leave", "undo", "seat 1",
        "  seat 1: active, owes nothing"]


if __name__ == "__main__":
    two_runtimes.run_all(globals())
