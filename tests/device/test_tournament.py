"""A tournament table on the device: config.json's "tournament" block, the clock run by the
app on its now_ms, its events and commands, the level played from the next deal, no deal
during a break, the clock saved with the table and back paused after a power cut, the
next-hand button held 5 s, and nothing allocated per frame (CPython and MicroPython)."""
import json

import two_runtimes
from dealerbutton import ring as R
from dealerbutton.store import config, filestore
from device_rig import Rig, ticks_heap_locked
from fake_flash import FakeFlash

MIN = 60000
TOURNAMENT = {"ante_kind": "bb", "levels": [
    {"sb": 25, "bb": 50, "minutes": 20},
    {"sb": 50, "bb": 100, "ante": 100, "minutes": 20},
    {"break": 10},
    {"sb": 100, "bb": 200, "ante": 200, "minutes": 15},
]}
CFG = {"seats": 6, "leds": 24, "tournament": TOURNAMENT}


def events(lines):
    return [x for x in lines if x.startswith("* ")]


def seated(n=4, cfg=None, **kw):
    rig = Rig(cfg or CFG, **kw)
    for s in range(1, n + 1):
        assert rig.reply("sit %d" % s) == "ok"
    return rig


def clock_json(rig):
    import json
    reply = rig.reply("clock")
    assert reply.startswith("ok {"), reply
    return json.loads(reply[3:])


def test_the_block_is_checked_with_every_problem_listed_and_nothing_half_applied():
    cfg, errors = config.validate({"seats": 6, "tournament": {
        "ante_kind": "big", "levels": [{"sb": 50, "bb": 25, "minutes": 0}, {"break": 5}]}})
    assert errors == [
        "tournament.ante_kind: must be one of each, bb, button, not \"big\"",
        "tournament.levels[0].minutes: 0 is out of range 1..600",
        "tournament.levels[0]: the small blind 50 is bigger than the big blind 25",
        "tournament.levels[1]: the schedule ends with a level, not a break"], errors
    assert "tournament" not in cfg                 # nothing of it taken
    _, errors = config.validate({"tournament": None, "seats": 1})
    assert [e.split(":")[0] for e in errors] == ["seats", "tournament"], errors


def test_a_good_block_is_in_the_config_and_written_back_in_a_fixed_order():
    import json
    cfg, errors = config.validate(CFG)
    assert errors == [] and cfg["tournament"]["levels"][0] == {"sb": 25, "bb": 50, "ante": 0,
                                                                "minutes": 20}
    text = config.to_json(cfg)
    assert text.endswith('"tournament":{"ante_kind":"bb","levels":[{"sb":25,"bb":50,"ante":0,'
                         '"minutes":20},{"sb":50,"bb":100,"ante":100,"minutes":20},'
                         '{"break":10},{"sb":100,"bb":200,"ante":200,"minutes":15}]}}'), text
    again, errors = config.validate(json.loads(text))
    assert errors == [] and again == cfg
    # A cash game says nothing of a tournament.
    assert "tournament" not in config.to_json(config.validate({})[0])


def test_a_new_tournament_table_starts_paused_at_level_1():
    rig = Rig(CFG)
    assert rig.take() == ["* info no saved state: clean start", "* level 1 25/50 ante 0",
                          "* clock paused"]
    t = rig.table
    assert t.tournament and t.level == (25, 50, 0, "bb")
    c = clock_json(rig)
    assert c == {"level": 1, "sb": 25, "bb": 50, "ante": 0, "ante_kind": "bb", "break": False,
                 "ms_left": 20 * MIN, "running": False,
                 "next": {"level": 2, "sb": 50, "bb": 100, "ante": 100, "minutes": 20}}, c
    rig.run(1000, step=100)
    assert clock_json(rig)["ms_left"] == 20 * MIN     # paused: no time runs


def test_a_cash_game_has_no_clock():
    rig = Rig({"seats": 6})
    assert rig.take() == ["* info no saved state: clean start"]
    assert not rig.table.tournament
    for line in ("clock", "clock pause", "clock set 1:00"):
        assert rig.reply(line) == ('err clock no tournament: a cash game (config.json has no '
                                   '"tournament")'), line


def test_clock_commands_their_events_and_refusals():
    rig = Rig(CFG)
    assert rig.send("clock resume") == ["* clock running", "ok"]
    assert rig.send("clock resume") == ["ok"]       # already running: nothing to say
    rig.run(1000, step=100)
    assert 20 * MIN - 1200 <= clock_json(rig)["ms_left"] <= 20 * MIN - 900
    assert rig.send("clock pause") == ["* clock paused", "ok"]
    assert rig.send("clock next") == ["* level 2 50/100 ante 100", "ok"]
    assert rig.table.level == (50, 100, 100, "bb")  # played from the next deal
    assert rig.send("clock next") == ["* break 10:00", "ok"]
    assert rig.send("clock prev") == ["* level 2 50/100 ante 100", "ok"]
    assert rig.send("clock prev") == ["* level 1 25/50 ante 0", "ok"]
    assert rig.table.level == (25, 50, 0, "bb")
    assert rig.send("clock prev") == ["err clock no previous level"]
    assert rig.send("clock set 12:30") == ["ok"]
    assert clock_json(rig)["ms_left"] == 750000
    assert rig.send("clock set 12:60") == [
        "err clock the time left is M:SS, 0:00 to 600:00 (e.g. 12:30), not 12:60"]
    for bad in ("clock stop", "clock set", "clock pause now", "clock set 1:00 2"):
        assert rig.send(bad) == ["err usage clock [pause|resume|next|prev|set M:SS]"], bad
    assert rig.send("CLOCK Resume") == ["* clock running", "ok"]


def test_levels_start_on_time_and_the_next_deal_plays_them():
    rig = seated(4)
    rig.send("deal 1")
    assert rig.table.hand.posts == {2: (25, 0), 3: (50, 25 * 0)}, rig.table.hand.posts
    rig.send("clock set 0:02")
    rig.take()
    rig.send("clock resume")
    rig.run(1900, step=50)
    assert events(rig.take()) == []
    rig.run(200, step=50)
    assert rig.take() == ["* level 2 50/100 ante 100"]
    assert rig.table.level == (50, 100, 100, "bb")
    lines = rig.send("deal")
    h = rig.table.hand
    # The big blind posts one ante for the table, dead, besides his big blind (T4, T5).
    assert h.button == 2 and h.posts == {3: (50, 0), 4: (100, 100)}, h.posts
    assert [x for x in lines if x.startswith("* hand")][0].endswith(
        '"posts":{"3":[50,0],"4":[100,100]},"first_to_act":1}'), lines


def test_no_deal_during_a_break_by_command_or_by_the_button():
    rig = seated(4)
    rig.send("deal 1")
    rig.send("clock next")
    assert rig.send("clock next") == ["* break 10:00", "ok"]
    hands = rig.table.hands
    assert rig.send("deal") == ["err rule no hand during the break: 10:00 left"]
    rig.send("clock resume")
    rig.run(1000, step=100)
    assert rig.send("deal") == ["err rule no hand during the break: 9:59 left"]
    assert rig.press(0) == []                        # the next-hand button: refused too
    assert rig.table.hands == hands
    rig.send("clock set 0:01")
    rig.run(1100, step=100)
    assert rig.take() == ["* level 3 100/200 ante 200"]
    rig.press(0)
    assert rig.table.hands == hands + 1 and rig.table.hand.posts[rig.table.hand.bb] == (200, 200)


def test_the_break_refuses_the_draw_for_the_button_too():
    rig = seated(3)
    rig.send("clock next")
    rig.send("clock next")
    assert rig.press(0) == []
    assert rig.ring.mode == R.DRAW
    rig.press(2)
    assert rig.table.hand is None


def test_saved_at_every_clock_event_and_every_30_s_while_it_runs():
    rig = Rig(CFG)
    seq = rig.store.seq
    rig.send("clock resume")
    assert rig.store.seq == seq + 1
    rig.run(29000, step=500)
    assert rig.store.seq == seq + 1
    rig.run(1500, step=500)
    assert rig.store.seq == seq + 2
    rig.run(30000, step=500)
    assert rig.store.seq == seq + 3
    rig.send("clock pause")
    assert rig.store.seq == seq + 4
    rig.run(60000, step=1000)
    assert rig.store.seq == seq + 4                   # paused: nothing to save


def test_after_a_power_cut_the_clock_is_back_paused_at_the_time_saved():
    rig = seated(4)
    rig.send("deal 1")
    rig.send("clock next")
    rig.send("clock set 12:40")
    rig.send("clock resume")
    rig.run(31000, step=500)                        # saved after 30 s: 12:10 left
    rig.run(5000, step=500)                         # not saved: lost in the cut
    again = rig.reboot()
    assert again.take() == ["* info state restored (save %d)" % again.store.seq,
                            "* clock paused (restored: level 2, 12:10 left)"]
    c = clock_json(again)
    assert c["level"] == 2 and not c["running"] and c["ms_left"] == 730000, c
    assert again.table.level == (50, 100, 100, "bb") and again.table.hands == 1
    again.run(5000, step=500)
    assert clock_json(again)["ms_left"] == 730000
    assert again.send("clock resume") == ["* clock running", "ok"]


def test_the_clock_and_the_table_share_one_checked_save():
    rig = Rig(CFG)
    rig.send("clock next")
    data = rig.fs.files[filestore.NAME]
    d, seq, problem = filestore.parse(data)
    assert problem is None and d["tournament"] is True
    assert json.loads(data.decode())["clock"] == {"entry": 1, "ms_left": 1200000}, data
    bad = data.replace(b'"entry":1', b'"entry":2')    # the CRC covers the clock too
    assert filestore.parse(bad)[2] == "bad CRC"
    fs = FakeFlash({filestore.NAME: bad})
    again = Rig(CFG, fs=fs)
    assert again.take()[:2] == ["* error saved state unusable (state.json bad CRC): clean start",
                                "* level 1 25/50 ante 0"]


def test_a_saved_clock_that_does_not_fit_the_schedule_starts_again():
    rig = Rig(CFG)
    rig.send("clock next")
    rig.send("clock next")
    rig.send("clock next")                          # entry 3: level 3
    shorter = {"seats": 6, "leds": 24, "tournament": {"levels": [
        {"sb": 25, "bb": 50, "minutes": 20}, {"sb": 50, "bb": 100, "minutes": 20}]}}
    again = rig.reboot(shorter)
    lines = again.take()
    assert lines[1].startswith("* error saved clock: entry 3 with ms_left 900000 does not fit "
                               "the schedule"), lines
    assert lines[2:] == ["* level 1 25/50 ante 0", "* clock paused"], lines
    assert again.table.level == (25, 50, 0, "each")


def test_a_cash_table_is_not_taken_for_a_tournament_one():
    rig = Rig({"seats": 6})
    rig.send("sit 1")
    again = rig.reboot(CFG)
    lines = again.take()
    assert lines[0] == ("* error saved table (save 1) is a cash game table, config.json has a "
                        "tournament: kept as state-6seats-dead-10-20.json (config.json back to "
                        "a cash game resumes it): clean start"), lines
    assert again.table.tournament and again.table.status(1) == "empty"
    again.send("sit 2")
    again.send("clock next")
    back = again.reboot({"seats": 6})
    assert back.take() == [
        "* info saved table (save 3) is a tournament table, config.json a cash game: kept as "
        "state-6seats-dead-tournament.json (config.json back to a tournament resumes it)",
        "* info state restored (save 1, from state-6seats-dead-10-20.json)"]
    assert back.table.status(1) == "active" and back.table.status(2) == "empty"
    # The tournament table comes back with its clock.
    lines = back.reboot(CFG).take()
    assert lines[1:] == ["* info state restored (save 3, from state-6seats-dead-tournament.json)",
                         "* clock paused (restored: level 2, 20:00 left)"], lines
    assert lines[0].startswith("* info saved table (save 1) is a cash game table"), lines


def test_an_undone_level_is_played_again_from_the_next_deal():
    rig = seated(4)
    rig.send("deal 1")
    rig.send("clock next")
    assert rig.send("undo") == [
        "* undo level 2 (the clock's level is played again from the next deal)", "ok"]
    assert rig.table.level == (25, 50, 0, "bb")
    rig.send("deal")
    assert rig.table.hand.posts[rig.table.hand.bb] == (100, 100)


def test_holding_the_next_hand_button_5_s_pauses_and_starts_the_clock():
    rig = seated(4)
    rig.send("deal 1")
    hands = rig.table.hands
    lines = rig.hold(0, 5200)
    assert lines == ["* clock running"], lines
    assert rig.table.hands == hands and rig.table.hand.n == 1   # no undo, no deal
    assert rig.hold(0, 5200) == ["* clock paused"]
    # A hold of 1 to 5 s is still undo.
    lines = rig.hold(0, 4500)
    assert lines[0] == "* undo deal 1 (hand 1)", lines
    # The flashes: "let go: undo" at 1 s, "let go: clock" at 5 s.
    rig.run(500)
    rig.level(0, 0)
    while not rig.app.panel.long_shown[0]:
        rig.tick(5)
    assert rig.ring.flashing and not rig.app.presses.clock_armed
    rig.run(3950)
    assert not rig.app.presses.clock_armed and not rig.ring.flashing
    rig.run(100)
    assert rig.app.presses.clock_armed and rig.ring.flashing
    rig.level(0, 1, 100)
    assert rig.take()[-1] == "* clock running"


def test_a_cash_game_hold_of_5_s_is_still_undo():
    rig = seated(4, cfg={"seats": 6})
    rig.send("deal 1")
    lines = rig.hold(0, 6000)
    assert lines[0] == "* undo deal 1 (hand 1)", lines


# -- the clock on the ring ----------------------------------------------------------------

def frames(rig, now):
    """(the frame with the clock's signal, the same frame without it) at now."""
    r = rig.ring
    shown = bytes(r.render(now))
    signal = r.clock
    r.clock = R.CLOCK_NONE
    plain = bytes(r.render(now))
    r.clock = signal
    return shown, plain


def led(buf, p):
    return (buf[3 * p], buf[3 * p + 1], buf[3 * p + 2])


def free_and_marked(rig):
    """The strip positions the seats leave dark, and those they light, in seat order."""
    r = rig.ring
    free, marked = [], []
    for s in range(1, r.seats + 1):
        arc = r.arc(s)
        if r.status[s] == R.EMPTY and s not in (r.button, r.sb, r.bb, r.first_to_act):
            free += arc
        else:
            if len(arc) >= 4:
                free.append(arc[-1])
                arc = arc[:-1]
            marked += arc
    return free, marked


def check_marks_kept(shown, plain, marked, lowest):
    """Every LED a seat lights keeps its colour, at least `lowest`/256 as bright (the
    current limit may scale a frame down when the clock lights more LEDs)."""
    for p in marked:
        a, b = led(shown, p), led(plain, p)
        assert max(b) > 0, (p, b)
        for i in range(3):
            assert b[i] * lowest // 256 - 1 <= a[i] <= b[i], (p, a, b)
        assert max(a) > 0, (p, a, b)


def test_the_last_minute_on_the_ring_beats_without_hiding_a_mark():
    rig = seated(4)                  # seats 5 and 6 empty; arcs of 4 LEDs: a gap each
    rig.send("deal 1")
    rig.send("away 2")
    rig.send("clock set 1:05")
    rig.send("clock resume")
    rig.run(2000, step=25)
    assert rig.ring.clock == R.CLOCK_NONE
    rig.run(4000, step=25)
    assert rig.ring.clock == R.CLOCK_COMING
    free, marked = free_and_marked(rig)
    assert len(free) == 12 and len(marked) == 12, (free, marked)
    beat = rig.now - rig.now % 1000 + 1000
    shown, plain = frames(rig, beat + 100)           # on the beat: the ring dips
    check_marks_kept(shown, plain, marked, 64)
    assert led(shown, marked[0]) != led(plain, marked[0])
    assert all(led(shown, p) == (20, 8, 0) for p in free), [led(shown, p) for p in free]
    shown, plain = frames(rig, beat + 300)           # the dark LEDs lit in vermilion
    check_marks_kept(shown, plain, marked, 192)
    assert all(led(shown, p) == (80, 35, 0) for p in free)
    shown, plain = frames(rig, beat + 700)           # and dark again
    assert shown == plain
    rig.send("clock pause")                          # nothing comes while paused
    rig.tick()
    assert rig.ring.clock == R.CLOCK_NONE


def test_a_new_level_on_the_ring_blinks_for_10_s():
    rig = seated(3)
    rig.send("deal 1")
    rig.send("clock set 0:01")
    rig.send("clock resume")
    rig.run(1100, step=25)
    assert rig.take() == ["* level 2 50/100 ante 100"]
    assert rig.ring.clock == R.CLOCK_NEW
    free, marked = free_and_marked(rig)
    t = rig.now - rig.now % 500 + 500
    shown, plain = frames(rig, t + 100)               # dim
    check_marks_kept(shown, plain, marked, 64)
    assert all(led(shown, p) == (0, 0, 0) for p in free)
    shown, plain = frames(rig, t + 300)               # bright, the dark LEDs white
    check_marks_kept(shown, plain, marked, 192)       # (over the 400 mA: scaled down)
    white = [led(shown, p) for p in free]
    assert all(x == white[0] and 72 <= x[0] == x[1] == x[2] <= 96 for x in white), white
    rig.run(9600, step=25)                            # the level is 9.7 s old
    assert rig.ring.clock == R.CLOCK_NEW
    rig.run(400, step=25)
    assert rig.ring.clock == R.CLOCK_NONE
    assert rig.send("clock next") == ["* break 10:00", "ok"]
    rig.tick()
    assert rig.ring.clock == R.CLOCK_BREAK
    assert rig.send("clock prev") == ["* level 2 50/100 ante 100", "ok"]
    rig.tick()
    assert rig.ring.clock == R.CLOCK_NEW              # any level that starts


def test_a_break_on_the_ring_shows_the_share_left():
    rig = seated(4)
    rig.send("deal 1")
    rig.send("clock next")
    rig.send("clock next")
    rig.send("clock resume")
    rig.tick()
    r = rig.ring
    assert r.clock == R.CLOCK_BREAK and r.clock_parts == 24
    free, marked = free_and_marked(rig)
    shown, plain = frames(rig, rig.now)
    check_marks_kept(shown, plain, marked, 192)       # the whole break left: all bright
    assert all(led(shown, p) == (0, 59, 43) for p in free), [led(shown, p) for p in free]
    rig.send("clock set 2:30")                        # a quarter of the break left
    rig.tick()
    assert r.clock_parts == 6
    shown, plain = frames(rig, rig.now)
    logical = [r.arc(s) for s in range(1, 7)]
    first = logical[0] + logical[1][:2]               # the first 6 LEDs from seat 1's
    check_marks_kept(shown, plain, [p for p in marked if p in first], 256)
    check_marks_kept(shown, plain, [p for p in marked if p not in first], 85)
    assert [led(shown, p) for p in marked if p not in first] == [
        tuple(v * 85 >> 8 for v in led(plain, p)) for p in marked if p not in first]
    # No free LED among the first six here (seat 1's gap is its 4th LED): all dark now.
    assert [p for p in free if p in first] == [logical[0][3]]
    assert led(shown, logical[0][3]) == (0, 59, 43)
    assert all(led(shown, p) == (0, 0, 0) for p in free if p not in first)
    rig.send("clock set 0:01")
    rig.run(1100, step=25)
    assert rig.take() == ["* level 3 100/200 ante 200"] and r.clock == R.CLOCK_NEW


def test_the_loop_allocates_nothing_with_the_clock_running():
    rig = seated(4)
    rig.send("deal 2")
    rig.send("away 3")
    rig.send("clock resume")
    rig.run(50)
    # 2.1 s of frames and button polls at each of the clock's signals on the ring
    # (MicroPython; CPython: nothing to measure).
    for setting, signal in (("clock set 5:00", R.CLOCK_NONE), ("clock set 0:30",
                                                                  R.CLOCK_COMING)):
        rig.send(setting)
        rig.run(50)
        assert rig.ring.clock == signal
        writes = rig.strip.writes
        if ticks_heap_locked(rig):
            assert rig.strip.writes > writes + 50
    rig.run(30000, step=50)
    assert rig.take()[0] == "* level 2 50/100 ante 100"
    assert rig.ring.clock == R.CLOCK_NEW
    ticks_heap_locked(rig)
    rig.send("clock next")
    rig.run(50)
    assert rig.ring.clock == R.CLOCK_BREAK
    ticks_heap_locked(rig)
    assert rig.app.clock.running and rig.ring.clock == R.CLOCK_BREAK


if __name__ == "__main__":
    two_runtimes.run_all(globals())
