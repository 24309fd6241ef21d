"""What the rules core costs in RAM, measured under the real MicroPython (unix port,
64-bit: the Pico's 32-bit words make every figure smaller there)."""

from micropython_unix import run_micropython

SCRIPT = """
import gc, json
from dealerbutton.rules import Table

def busy(kind):
    rules = kind.split("-")[0]
    t = Table(12, rules, (500, 1000), tournament=kind.endswith("-tournament"))
    for s in range(1, 13):
        t.sit(s)
    if kind != rules:  # a tournament level with antes, then a big-blind ante
        t.set_level(1000, 2000, 200)
    t.deal(button=1)
    for i in range(30):
        t.deal()
    return t

for rules in ("dead", "moving", "simple", "dead-tournament", "moving-tournament"):
    t = busy(rules)
    worst = 0
    for i in range(40):
        if i == 3:
            t.leave(4)
        if i == 5:
            t.away(7)
            t.sit(4, post=not t.tournament)
        if i == 9:
            t.leave(10)
            t.sit(10)
        if i == 20:
            t.back(7)
        if i == 30 and t.tournament:
            t.set_level(2000, 4000, 4000, "bb")
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        t.deal()
        b = gc.mem_alloc()
        gc.enable()
        worst = max(worst, b - a)
    t = None
    gc.collect()
    a = gc.mem_alloc()
    t = busy(rules)
    gc.collect()
    whole = gc.mem_alloc() - a
    assert t.can_undo()
    print(rules, worst, whole, len(json.dumps(t.to_dict())))
"""


def test_deal_allocates_little_and_the_table_with_its_undo_history_is_small():
    out = run_micropython(SCRIPT).stdout.split("\n")
    rows = [line.split() for line in out if line.strip()]
    assert [r[0] for r in rows] == ["dead", "moving", "simple", "dead-tournament",
                                    "moving-tournament"], out
    for rules, deal, whole, saved in rows:
        assert int(deal) <= 12288, (rules, "deal allocates", deal)
        assert 500 < int(whole) <= 32768, (rules, "table + 40 undo steps", whole)
        assert int(saved) < 2048, (rules, "saved JSON well inside store.READ_LIMIT", saved)
