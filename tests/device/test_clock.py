"""The tournament clock with a fake time: a schedule run through, pause and resume, next,
prev and set, breaks, the last level, the ticks wrap-around, saving and restoring, the
`clock` command and config.json's "tournament" block (CPython and MicroPython)."""
import gc
import json

import two_runtimes
from dealerbutton.clock import schedule as clockmod
from dealerbutton.clock.schedule import NOTHING, Clock, mss
from dealerbutton.store.config import check_tournament
from dealerbutton.ticks import TICKS_MAX, ticks_add

MIN = 60000
SCHEDULE = {"ante_kind": "bb", "levels": [
    {"sb": 25, "bb": 50, "ante": 0, "minutes": 20},
    {"sb": 50, "bb": 100, "ante": 100, "minutes": 20},
    {"break": 10},
    {"sb": 100, "bb": 200, "ante": 200, "minutes": 15},
]}


def make(now=0):
    tournament, errors = check_tournament(SCHEDULE)
    assert errors == [], errors
    return Clock(tournament, now)


def refusal(f, *args):
    """The message of the ValueError f(*args) raises."""
    try:
        f(*args)
    except ValueError as e:
        return str(e)
    raise AssertionError("not refused: %r" % (args,))


def in_force(c):
    return (c.level, c.sb, c.bb, c.ante, c.ante_kind, c.on_break)


def run(c, start, end, step=25):
    """Tick c every `step` ms from start to end (wrapping); the lines with their ms."""
    out = []
    t = 0
    while t <= end - start:
        for line in c.tick(ticks_add(start, t)):
            out.append((t, line))
        t += step
    return out


def test_a_fresh_clock_is_paused_at_level_1_with_its_whole_time():
    c = make()
    assert in_force(c) == (1, 25, 50, 0, "bb", False)
    assert not c.running and c.ms_left(0) == 20 * MIN and c.ms_left(10 ** 6) == 20 * MIN
    assert c.tick(5 * MIN) == NOTHING and c.level == 1  # paused: time does not run
    assert c.boot_lines() == ["* level 1 25/50 ante 0", "* clock paused"]
    assert c.resume(1000) == ["* clock running"]
    assert c.resume(2000) == NOTHING  # already running: nothing to say
    assert c.running and c.ms_left(1000 + 5 * MIN) == 15 * MIN


def test_the_schedule_runs_level_by_level_and_through_the_break():
    c = make()
    c.resume(0)
    lines = run(c, 0, 70 * MIN, step=1000)
    assert lines == [(20 * MIN, "* level 2 50/100 ante 100"),
                     (40 * MIN, "* break 10:00"),
                     (50 * MIN, "* level 3 100/200 ante 200")], lines
    c = make()
    c.resume(0)
    c.tick(40 * MIN)
    # During the break the level played before it is the one in force.
    assert in_force(c) == (2, 50, 100, 100, "bb", True)
    assert c.ms_left(40 * MIN + 1) == 10 * MIN - 1
    assert c.last_minute(49 * MIN) and not c.last_minute(49 * MIN - 1)
    c.tick(50 * MIN)
    assert in_force(c) == (3, 100, 200, 200, "bb", False)


def test_no_deal_during_a_break_and_the_share_of_it_left():
    c = make()
    c.resume(0)
    assert c.deal_refusal(0) is None
    assert c.parts_left(0, 24) == 24 and c.parts_left(10 * MIN, 24) == 12
    assert c.parts_left(20 * MIN - 1, 24) == 1  # the last part lasts to the end
    c.tick(40 * MIN)
    assert c.deal_refusal(44 * MIN + 10500) == "no hand during the break: 5:50 left"
    assert c.parts_left(40 * MIN, 60) == 60 and c.parts_left(45 * MIN, 60) == 30
    # Parts of 10 min // 256 = 2343 ms: 299 999 ms left are 128.04 of them, shown as 129.
    assert c.parts_left(45 * MIN + 1, 256) == 129 and c.parts_left(50 * MIN - 1, 7) == 1
    c.set("45:00", 50 * MIN)  # more time than the break's length: all parts, no more
    assert c.parts_left(50 * MIN, 12) == 12
    c.set("0:00", 50 * MIN)
    assert c.parts_left(50 * MIN, 12) == 0
    c.tick(50 * MIN)
    assert c.deal_refusal(50 * MIN) is None


def test_a_late_tick_loses_no_time():
    """Two entries ran out before the tick: both are announced, and the next one started
    when the last one ended, not at the tick."""
    c = make()
    c.resume(0)
    assert c.tick(41 * MIN) == ["* level 2 50/100 ante 100", "* break 10:00"]
    assert c.on_break and c.ms_left(41 * MIN) == 9 * MIN


def test_the_last_level_stays_in_force():
    c = make()
    c.resume(0)
    run(c, 0, 64 * MIN, step=1000)
    assert c.level == 3 and c.ms_left(64 * MIN) == MIN
    assert not c.last_minute(64 * MIN)  # no change is coming: the last level stays
    assert c.tick(65 * MIN) == NOTHING and c.final and c.ms_left(65 * MIN) == 0
    c.saved(65 * MIN)
    # Days later: still level 3 at 0:00, nothing more to announce or to save.
    for t in (66 * MIN, 600 * MIN, 6000 * MIN):
        assert c.tick(t) == NOTHING and c.ms_left(t) == 0 and not c.should_save(t)
    assert in_force(c) == (3, 100, 200, 200, "bb", False) and c.running
    assert '"ms_left":0,"running":true,"next":null' in c.json(6000 * MIN)


def test_pause_and_resume_hold_the_time():
    c = make()
    c.resume(0)
    assert c.pause(5 * MIN) == ["* clock paused"]
    assert c.pause(6 * MIN) == NOTHING  # already paused
    assert c.ms_left(100 * MIN) == 15 * MIN and c.tick(100 * MIN) == NOTHING
    c.resume(100 * MIN)
    assert c.tick(115 * MIN - 1) == NOTHING
    assert c.tick(115 * MIN) == ["* level 2 50/100 ante 100"]
    # Paused when the time had just run out: the level changes at once on resume.
    c = make()
    c.resume(0)
    c.pause(20 * MIN + 500)
    assert c.level == 1 and c.ms_left(20 * MIN + 500) == 0
    c.resume(30 * MIN)
    assert c.tick(30 * MIN) == ["* level 2 50/100 ante 100"]
    assert c.ms_left(30 * MIN) == 20 * MIN


def test_next_and_prev_move_through_levels_and_breaks_with_their_whole_time():
    c = make()
    c.resume(0)
    assert c.next(MIN) == ["* level 2 50/100 ante 100"]
    assert c.ms_left(MIN) == 20 * MIN and c.running
    assert c.next(2 * MIN) == ["* break 10:00"] and c.on_break
    assert c.next(3 * MIN) == ["* level 3 100/200 ante 200"]
    assert refusal(c.next, 4 * MIN) == "no next level"
    assert c.prev(5 * MIN) == ["* break 10:00"]
    assert in_force(c) == (2, 50, 100, 100, "bb", True) and c.ms_left(5 * MIN) == 10 * MIN
    c.pause(6 * MIN)
    assert c.prev(7 * MIN) == ["* level 2 50/100 ante 100"]
    assert not c.running and c.ms_left(60 * MIN) == 20 * MIN  # moving keeps it paused
    assert c.prev(8 * MIN) == ["* level 1 25/50 ante 0"]
    assert refusal(c.prev, 9 * MIN) == "no previous level"
    assert c.level == 1


def test_set_gives_the_current_entry_its_time_left():
    c = make()
    c.resume(0)
    assert c.set("2:30", MIN) == NOTHING
    assert c.ms_left(MIN) == 150000 and c.length_ms == 20 * MIN
    assert c.tick(MIN + 150000) == ["* level 2 50/100 ante 100"]
    c.pause(MIN + 150000)
    c.set("45:00", 0)  # more than the level's length: allowed
    assert c.ms_left(0) == 45 * MIN and not c.running
    c.set("0:00", 0)
    c.resume(10)
    assert c.tick(10) == ["* break 10:00"]
    # The last level run out, then set again: it counts down again.
    c.next(0)
    c.tick(15 * MIN)
    assert c.final
    c.set("1:00", 20 * MIN)
    assert not c.final and c.ms_left(20 * MIN + 1000) == 59000


def test_times_are_written_and_read_as_m_ss():
    assert [mss(ms) for ms in (0, 1, 999, 1000, 59001, 60000, 754000, 36000000)] == [
        "0:00", "0:01", "0:01", "0:01", "1:00", "1:00", "12:34", "600:00"]
    c = make()
    for word, ms in (("0:00", 0), ("2:30", 150000), ("12:05", 725000), ("600:00", 36000000)):
        c.set(word, 0)
        assert c.ms_left(0) == ms, word
    for bad in ("12", "1:5", "1:60", "a:00", ":30", "600:01", "1000:00", "-1:00", "1:0x",
                "1::00", "", "1:00:00"):
        assert refusal(c.set, bad, 0) == (
            "the time left is M:SS, 0:00 to 600:00 (e.g. 12:30), not %s" % bad)
    assert c.ms_left(0) == 36000000  # refused: unchanged


def test_ticks_wrap_around():
    start = TICKS_MAX - 5 * MIN  # the tick counter wraps 5 minutes into level 1
    c = make(start)
    c.resume(start)
    lines = run(c, start, start + 52 * MIN, step=1000)
    assert [(t // MIN, line) for t, line in lines] == [
        (20, "* level 2 50/100 ante 100"), (40, "* break 10:00"),
        (50, "* level 3 100/200 ante 200")], lines
    t = ticks_add(start, 52 * MIN)
    assert t < start and c.ms_left(t) == 13 * MIN
    c.pause(t)
    c.resume(ticks_add(t, TICKS_MAX // 3))
    assert c.ms_left(ticks_add(t, TICKS_MAX // 3 + MIN)) == 12 * MIN


def test_json_for_the_clock_command():
    c = make()
    js = c.json(0)
    assert js == ('{"level":1,"sb":25,"bb":50,"ante":0,"ante_kind":"bb","break":false,'
                  '"ms_left":1200000,"running":false,'
                  '"next":{"level":2,"sb":50,"bb":100,"ante":100,"minutes":20}}')
    c.resume(0)
    c.tick(20 * MIN + 1000)
    assert c.json(20 * MIN + 1000) == (
        '{"level":2,"sb":50,"bb":100,"ante":100,"ante_kind":"bb","break":false,'
        '"ms_left":1199000,"running":true,"next":{"break":10}}')
    c.tick(40 * MIN)
    d = json.loads(c.json(45 * MIN))
    assert d["break"] is True and d["ms_left"] == 5 * MIN
    assert d["next"] == {"level": 3, "sb": 100, "bb": 200, "ante": 200, "minutes": 15}


def test_save_at_every_event_and_every_30_s_of_running():
    c = make()
    assert not c.should_save(10 * MIN)  # a fresh paused clock: nothing to save
    c.resume(0)
    assert c.should_save(0)
    c.saved(0)
    assert not c.should_save(29999) and c.should_save(30000)
    c.saved(30000)
    c.pause(40000)
    assert c.should_save(40000)
    c.saved(40000)
    assert not c.should_save(10 * MIN)  # paused: nothing changes
    for event in (lambda t: c.next(t), lambda t: c.prev(t), lambda t: c.set("0:01", t),
                  lambda t: c.resume(t)):
        event(11 * MIN)
        assert c.should_save(11 * MIN)
        c.saved(11 * MIN)
    assert c.tick(11 * MIN + 1000) == ["* level 2 50/100 ante 100"]
    assert c.should_save(11 * MIN + 1000)  # a level started: saved at once


def test_restored_after_a_power_cut_paused_at_the_time_saved():
    c = make()
    c.resume(0)
    c.tick(25 * MIN)
    saved = c.to_dict(25 * MIN)
    assert saved == {"entry": 1, "ms_left": 15 * MIN}
    # Power cut; the board comes back with its tick counter anywhere.
    r = Clock.from_dict(check_tournament(SCHEDULE)[0], json.loads(json.dumps(saved)), 777)
    assert not r.running and r.restored and in_force(r) == in_force(c)
    assert r.ms_left(999999) == 15 * MIN and r.tick(999999) == NOTHING
    assert r.boot_lines() == ["* clock paused (restored: level 2, 15:00 left)"]
    assert r.resume(1000) == ["* clock running"] and not r.restored
    assert r.tick(1000 + 15 * MIN) == ["* break 10:00"]
    r = Clock.from_dict(check_tournament(SCHEDULE)[0], {"entry": 2, "ms_left": 61500}, 0)
    assert r.boot_lines() == ["* clock paused (restored: break, 1:02 left)"]
    assert r.json(0).startswith('{"level":2,"sb":50,"bb":100,"ante":100,"ante_kind":"bb",'
                                '"break":true,"ms_left":61500,"running":false,')


def test_damaged_saved_clock_is_refused_with_what_is_wrong():
    t = check_tournament(SCHEDULE)[0]
    assert refusal(Clock.from_dict, t, [1, 2], 0) == "saved clock: must be an object, not a list"
    for d, entry, ms in (({"entry": 4, "ms_left": 0}, "4", "0"),
                         ({"entry": -1, "ms_left": 0}, "-1", "0"),
                         ({"ms_left": 0}, "null", "0"),
                         ({"entry": True, "ms_left": 0}, "true", "0"),
                         ({"entry": 1, "ms_left": "5"}, "1", '"5"'),
                         ({"entry": 1, "ms_left": -5}, "1", "-5"),
                         ({"entry": 1, "ms_left": 36000001}, "1", "36000001"),
                         ({"entry": 1.0, "ms_left": 5}, "a float", "5")):
        assert refusal(Clock.from_dict, t, d, 0) == (
            "saved clock: entry %s with ms_left %s does not fit the schedule (entries 0..3)"
            % (entry, ms)), d
    assert Clock.from_dict(t, {"entry": 3, "ms_left": 36000000}).ms_left(0) == 36000000


def test_a_good_block_gets_its_defaults():
    t, errors = check_tournament({"levels": [{"sb": 10, "bb": 20, "minutes": 15},
                                     {"break": 5}, {"sb": 20, "bb": 40, "ante": 5, "minutes": 15}]})
    assert errors == []
    assert t["ante_kind"] == "each"
    assert [sorted(e.items()) for e in t["levels"]] == [
        [("ante", 0), ("bb", 20), ("minutes", 15), ("sb", 10)], [("break", 5)],
        [("ante", 5), ("bb", 40), ("minutes", 15), ("sb", 20)]]
    c = Clock(t)
    assert in_force(c) == (1, 10, 20, 0, "each", False)
    t, errors = check_tournament({"ante_kind": "each", "levels": [{"sb": 5, "bb": 5, "minutes": 1}]})
    assert errors == []  # one level, sb == bb: fine
    assert Clock(t).json(0).endswith('"ms_left":60000,"running":false,"next":null}')


def test_a_dealer_ante_schedule_is_accepted_and_played():
    t, errors = check_tournament({"ante_kind": "button", "levels": [
        {"sb": 25, "bb": 50, "ante": 50, "minutes": 20}]})
    assert errors == [] and t["ante_kind"] == "button"
    c = Clock(t)
    assert in_force(c) == (1, 25, 50, 50, "button", False)
    assert '"ante":50,"ante_kind":"button",' in c.json(0)


def test_validation_lists_every_problem():
    block = {"ante_kind": "big", "speed": 2, "levels": [
        {"break": 10},
        {"sb": 50, "bb": 25, "ante": -1, "minutes": 20},
        {"sb": "25", "minutes": 0, "color": "red"},
        [25, 50],
        {"break": 0, "sb": 1},
        {"sb": 100, "bb": 200, "ante": 25, "minutes": 601},
        {"break": True},
    ]}
    t, errors = check_tournament(block)
    assert t is None
    expected = [
        'tournament.speed: unknown field (known: ante_kind, levels)',
        'tournament.ante_kind: must be one of each, bb, button, not "big"',
        "tournament.levels[1].ante: -1 is out of range 0..1000000",
        "tournament.levels[1]: the small blind 50 is bigger than the big blind 25",
        "tournament.levels[2].color: unknown field (known: ante, bb, minutes, sb)",
        'tournament.levels[2].sb: must be a whole number, not "25"',
        "tournament.levels[2].bb: missing",
        "tournament.levels[2].minutes: 0 is out of range 1..600",
        'tournament.levels[3]: must be a level {"sb", "bb", "ante", "minutes"} or a break '
        '{"break"}, not a list',
        "tournament.levels[4].sb: unknown field (known: break)",
        "tournament.levels[4].break: 0 is out of range 1..600",
        "tournament.levels[5].minutes: 601 is out of range 1..600",
        "tournament.levels[6].break: must be a whole number, not true",
        "tournament.levels[0]: the schedule starts with a level, not a break",
    ]
    assert errors == expected, errors
    # A break last (well formed this time) is reported too.
    t, errors = check_tournament({"levels": [{"sb": 1, "bb": 2, "minutes": 5}, {"break": 5}]})
    assert errors == ["tournament.levels[1]: the schedule ends with a level, not a break"]
    for block, message in (
            ([], 'tournament: must be an object {"ante_kind": .., "levels": [..]}, not a list'),
            ({}, "tournament.levels: must be a list of 1 to 100 levels and breaks, not null"),
            ({"levels": []}, "tournament.levels: must be a list of 1 to 100 levels and "
                             "breaks, not 0 of them"),
            ({"levels": {"sb": 1}}, "tournament.levels: must be a list of 1 to 100 levels "
                                    "and breaks, not an object"),
            ({"levels": [{"break": 1}] * 101}, "tournament.levels: must be a list of 1 to 100 "
                                               "levels and breaks, not 101 of them"),
            ({"levels": [{"sb": 1, "bb": 2, "minutes": 5}], 5: 1},
             "tournament: field names must be strings, not 5")):
        assert check_tournament(block) == (None, [message]), check_tournament(block)


def test_ticking_allocates_nothing():
    c = make()
    c.resume(0)
    c.tick(1)
    if not hasattr(gc, "mem_alloc"):
        return
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        t = 2
        while t < 19 * MIN:  # 40 frames a second through most of level 1
            c.tick(t)
            c.ms_left(t)
            c.last_minute(t)
            c.should_save(t)
            c.parts_left(t, 60)
            c.deal_refusal(t)
            t += 25
        c.pause(t)
        before_paused = gc.mem_alloc()
        while t < 25 * MIN:
            c.tick(t)
            c.ms_left(t)
            t += 25
        after = gc.mem_alloc()
    finally:
        gc.enable()
    # pause() made its one line; the frames around it made nothing.
    assert before_paused - before < 200, before_paused - before
    assert after == before_paused, after - before_paused


def test_constants_agree():
    assert clockmod.SAVE_EVERY_MS == 30000 and clockmod.MAX_MINUTES * MIN < 1 << 29


if __name__ == "__main__":
    two_runtimes.run_all(globals())
