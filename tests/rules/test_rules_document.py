"""Every worked example of firmware/dealerbutton/RULES.md is replayed and must give what
the document says (rules_document.py reads and runs them), on CPython and MicroPython."""
import rules_document
import two_runtimes

DOCUMENT = __file__.rsplit("/", 3)[0] + "/firmware/dealerbutton/RULES.md"


def read_document():
    f = open(DOCUMENT)
    try:
        return f.read()
    finally:
        f.close()


def test_every_example_gives_what_the_document_says():
    found = rules_document.examples(read_document())
    assert len(found) >= 20, len(found)
    wrong = []
    by_rule = {}
    for rule, line, lines in found:
        assert rule is not None, "example at line %d comes before any rule id" % line
        by_rule[rule] = by_rule.get(rule, 0) + 1
        got = rules_document.run(lines)
        if got != lines:
            for i in range(max(len(got), len(lines))):
                want = lines[i] if i < len(lines) else "(nothing)"
                have = got[i] if i < len(got) else "(nothing)"
                if want != have:
                    wrong.append("RULES.md line %d (%s): says %r, the rules give %r"
                                 % (line + i, rule, want, have))
                    break
    assert not wrong, "\n".join(wrong)
    print("examples by rule:", " ".join("%s:%d" % (r, by_rule[r]) for r in sorted(by_rule)))


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
