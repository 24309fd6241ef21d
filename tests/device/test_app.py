"""The device app driven through fake pins, a fake clock and a capturing strip: presses
give the right table events and frames; bounce, chatter and stuck buttons give none;
every event is saved and survives a power cut at any point of the save."""
import two_runtimes
from dealerbutton import ring as R
from dealerbutton.rules import Table
from device_rig import Rig, marks, scaled, ticks_heap_locked
from fake_flash import FakeFlash

OK = scaled("FFFFFF")
REFUSED = scaled("D55E00")


def seated(n=4, **kw):
    rig = Rig(**kw)
    for s in range(1, n + 1):
        assert rig.reply("sit %d" % s) == "ok"
    return rig


def hands(lines):
    return [x for x in lines if x.startswith("* hand ")]


def test_short_press_on_an_empty_seat_sits_down():
    rig = Rig()
    lines = rig.press(3)
    assert lines == ["* seat 3 active"], lines      # before the first hand: active (S1)
    assert rig.table.status(3) == "active"
    assert rig.ring.status[3] == R.ACTIVE


def test_press_feedback_comes_within_one_frame():
    rig = Rig()
    rig.level(3, 0, 100)
    writes = rig.strip.writes
    rig.pins[3].level = 1
    # the release is seen after the debounce time; the frame of that tick shows the flash
    seen = False
    for _ in range(20):
        rig.tick(5)
        if rig.table.status(3) == "active":
            seen = True
            break
    assert seen
    assert rig.strip.writes > writes
    assert rig.seat_leds(3) == [OK] * len(rig.ring.arc(3)), rig.seat_leds(3)
    assert rig.seat_leds(4) == ["000000"] * len(rig.ring.arc(4))


def test_refused_press_flashes_differently_and_changes_nothing():
    rig = Rig()
    before = rig.table.to_dict()
    rig.level(5, 0, 1100)          # long press of an empty seat: leave is refused
    rig.pins[5].level = 1
    lines = []
    for _ in range(20):
        rig.tick(5)
        if rig.seat_leds(5)[0] == REFUSED:
            break
    assert rig.seat_leds(5)[0] == REFUSED, rig.seat_leds(5)
    lines = rig.take()
    assert not [x for x in lines if x.startswith("* seat") or x.startswith("* hand")], lines
    assert rig.table.to_dict() == before
    assert rig.store.seq == 0      # nothing saved: nothing happened


def test_starting_the_game_with_the_button_on_a_chosen_seat():
    rig = seated(4)
    assert rig.press(0) == []
    assert rig.ring.mode == R.DRAW
    lines = rig.press(3)
    assert rig.ring.mode == R.NORMAL
    hs = hands(lines)
    assert len(hs) == 1 and hs[0].startswith('* hand {"n":1,"button":3,"sb":4,"bb":1,'), lines
    h = rig.table.hand
    assert h.button == 3 and h.sb == 4 and h.bb == 1 and h.first_to_act == 2
    ring = rig.ring
    assert (ring.button, ring.sb, ring.bb, ring.first_to_act) == (3, 4, 1, 2)
    assert [ring.status[s] for s in (1, 2, 3, 4)] == [R.ACTIVE] * 4
    rig.run(400)                   # the flash is over: the frame shows the roles
    assert rig.seat_leds(3)[0] == scaled("FFFFFF"), rig.seat_leds(3)   # the button: white
    assert rig.seat_leds(1)[0] == scaled("E69F00"), rig.seat_leds(1)   # the BB: orange
    assert rig.seat_leds(4)[0] == scaled("56B4E9"), rig.seat_leds(4)   # the SB: sky blue
    assert rig.seat_leds(7) == ["000000"] * len(rig.ring.arc(7))       # empty: dark


def test_starting_the_game_with_a_random_draw():
    rig = seated(4, rng=lambda n: 2)
    rig.press(0)
    lines = rig.press(0)
    assert rig.draws == [4]
    assert rig.table.hand.button == 3, lines    # the third of seats 1..4
    assert len(hands(lines)) == 1


def test_draw_needs_two_players_and_can_be_cancelled():
    rig = seated(1)
    rig.press(0)
    assert rig.ring.mode == R.DRAW
    assert rig.send("press 0") == ["err rule the draw for the button needs two players seated"]
    assert rig.send("press 5") == [
        "err rule seat 5 is empty: the button goes to a seated player"]
    assert rig.table.hands == 0
    rig.hold(0)
    assert rig.ring.mode == R.NORMAL
    assert rig.table.hands == 0


def test_the_draw_won_by_a_player_who_is_away_gives_him_a_dead_button():
    # S1: the seat that won the draw is pressed though its player stepped away since.
    rig = seated(4)
    rig.send("away 1")
    rig.press(0)
    assert rig.ring.mode == R.DRAW
    lines = rig.send("press 1")
    assert lines == ['* hand {"n":1,"button":1,"sb":2,"bb":3,"dealt":[2,3,4],'
                     '"posts":{"2":[10,0],"3":[20,0]},"first_to_act":4}', "ok button"], lines
    assert rig.table.status(1) == "away"


def test_next_hand_deals_and_long_press_undoes():
    rig = seated(4)
    rig.send("deal 1")
    assert rig.table.hands == 1
    lines = rig.press(0)
    assert len(hands(lines)) == 1 and rig.table.hands == 2
    assert rig.table.hand.button == 2
    rig.hold(0)
    assert rig.table.hands == 1 and rig.table.hand.button == 1


def test_seat_press_cycle_active_away_back():
    rig = seated(4)
    rig.send("deal 1")
    assert rig.press(2) == ["* seat 2 away"]
    assert rig.ring.status[2] == R.AWAY
    while rig.table.owes(2) == (0, 0):
        rig.press(0)               # seat 2 misses blinds while away
    assert rig.table.hands < 6
    lines = rig.press(2)
    assert lines == ["* seat 2 waiting"], lines
    assert rig.table.choice(2) == "post"
    assert rig.ring.status[2] == R.WAIT_POST
    assert rig.press(2) == []      # press again: wait for the big blind instead
    assert rig.table.choice(2) == "wait"
    assert rig.ring.status[2] == R.WAIT_BB
    rig.press(2)
    assert rig.table.choice(2) == "post"


def test_new_player_after_the_first_hand_waits_for_the_big_blind():
    rig = seated(4)
    rig.send("deal 1")
    assert rig.press(6) == ["* seat 6 waiting"]
    assert rig.table.choice(6) == "wait"
    assert rig.ring.status[6] == R.WAIT_BB
    rig.press(6)
    assert rig.table.choice(6) == "post" and rig.ring.status[6] == R.WAIT_POST


def test_long_press_busts_a_player_out():
    rig = seated(4)
    lines = rig.hold(2)
    assert lines == ["* seat 2 empty"], lines
    assert rig.table.status(2) == "empty"


def test_a_seat_left_or_moved_from_keeps_no_role_but_a_dead_button():
    for gone in ("leave 4", "move 4 9", "leave 3", "move 3 8"):
        rig = seated(4)
        rig.reply("deal 1")   # button 1, SB 2, BB 3, first to act 4
        assert rig.reply(gone) == "ok", gone
        rig.run(400)
        seat = int(gone.split()[1])
        assert rig.table.status(seat) == "empty"
        assert rig.seat_leds(seat) == ["000000"] * len(rig.ring.arc(seat)), (gone, rig.seat_leds(seat))
    rig = seated(4)
    rig.reply("deal 1")
    rig.reply("leave 1")   # the button stays, dead, on the empty seat
    rig.run(400)
    assert rig.ring.button == 1 and rig.seat_leds(1)[0] != "000000"


def test_long_press_acts_only_when_let_go():
    rig = seated(3)
    rig.level(2, 0, 900)
    assert rig.seat_leds(2)[0] != OK
    rig.level(2, 0, 150)
    assert rig.seat_leds(2)[0] == OK           # held 1 s: a flash says "let go now"
    rig.level(2, 0, 1000)
    assert rig.table.status(2) == "active"     # but nothing happens until let go
    rig.level(2, 1, 80)
    assert rig.table.status(2) == "empty"


def test_bouncing_press_is_one_event():
    rig = Rig()
    rig.take()
    for level in (0, 1, 0, 1, 0, 1, 0):        # contact bounce, 2 ms apart
        rig.level(4, level, 2, 2)
    rig.level(4, 0, 150)
    for level in (1, 0, 1, 0, 1):
        rig.level(4, level, 2, 2)
    rig.level(4, 1, 100)
    assert rig.take() == ["* seat 4 active"]


def test_chattering_button_gives_nothing():
    rig = seated(3)
    rig.take()
    level = 0
    for _ in range(400):                       # 4 s of a contact flickering every 10 ms
        rig.level(2, level, 10, 5)
        level ^= 1
    rig.level(2, 1, 200)
    assert rig.take() == []
    assert rig.statuses()[:3] == ["active"] * 3


def test_stuck_button_is_reported_once_ignored_and_recovers():
    rig = seated(3)
    rig.take()
    rig.level(2, 0, 35000, 20)                 # stuck for 35 s
    lines = rig.take()
    assert lines == ["* error seat 2 button stuck"], lines
    assert rig.table.status(2) == "active"     # its long press never acted
    assert rig.press(1) == ["* seat 1 away"]   # the other buttons still work
    rig.level(2, 1, 160)
    assert rig.take() == ["* info seat 2 button released, working again"]
    assert rig.table.status(2) == "active"
    assert rig.press(2) == ["* seat 2 away"]   # and it works again


def test_stuck_next_hand_button():
    rig = seated(3)
    rig.send("deal 1")
    rig.take()
    rig.level(0, 0, 31000, 50)
    assert rig.take() == ["* error next-hand button stuck"]
    assert rig.table.hands == 1


def test_button_held_at_power_up_does_nothing():
    rig = Rig()
    rig.pins[4].level = 0
    rig2 = Rig(fs=rig.fs)
    rig2.pins[4].level = 0
    rig2.take()
    rig2.run(3000)
    rig2.level(4, 1, 100)
    assert rig2.take() == []


def test_every_event_is_saved_and_restored_after_a_power_cycle():
    rig = seated(5)
    rig.press(0)
    rig.press(2)
    rig.press(4)                               # seat 4 away
    rig.press(0)                               # hand 2
    assert rig.store.seq == 8, rig.store.seq   # 5 sits, the first deal, away, a deal
    rig2 = rig.reboot()
    assert rig2.take() == ["* info state restored (save 8)"]
    assert rig2.table.to_dict() == rig.table.to_dict()
    assert marks(rig2.ring) == marks(rig.ring)
    assert rig2.table.deal().button == rig.table.deal().button


def test_a_power_cut_at_any_point_of_a_save_keeps_the_old_or_the_new_state():
    base = seated(4)
    base.send("deal 1")
    old = base.table.to_dict()
    cut = 1
    while True:
        fs = FakeFlash(base.fs.files, torn=(cut % 2 == 0))
        rig = Rig(fs=fs)
        rig.take()
        fs.cut_at = fs.ops + cut
        lines = rig.press(0)                   # deal: saved after the frame
        new = rig.table.to_dict()
        rig2 = rig.reboot()
        got = rig2.table.to_dict()
        assert got == old or got == new, (cut, got)
        if not fs.dead:
            assert got == new and "* error" not in " ".join(lines)
            break
        assert lines[-1].startswith("* error save failed: "), lines
        cut += 1
    assert cut > 4


def test_corrupt_state_file_gives_a_clean_start_and_an_error():
    rig = seated(3)
    data = bytearray(rig.fs.files["state.json"])
    data[-5] ^= 4
    rig.fs.files["state.json"] = bytes(data)
    rig2 = rig.reboot()
    lines = rig2.take()
    assert lines == ["* error saved state unusable (state.json bad CRC): clean start"], lines
    assert rig2.statuses() == ["empty"] * 9


def test_a_table_for_another_config_is_kept_aside_and_comes_back_with_it():
    rig = seated(3)
    rig.send("deal 1")
    nine = rig.table.to_dict()
    six = rig.reboot({"seats": 6})
    assert six.take() == [
        "* error saved table (save 4) has 9 seats, config.json 6: kept as "
        "state-9seats-dead-10-20.json (config.json back to 9 seats resumes it): clean start"]
    assert six.table.seats == 6 and six.statuses() == ["empty"] * 6
    assert sorted(six.fs.files) == ["state-9seats-dead-10-20.json"]
    six.send("sit 2")                          # the 6-seat table's first save
    assert sorted(six.fs.files) == ["state-9seats-dead-10-20.json", "state.json"]
    six_table = six.table.to_dict()
    # Back to 9 seats: the 9-seat table is back, the 6-seat one kept aside in its turn.
    back = six.reboot({"seats": 9})
    assert back.take() == [
        "* info saved table (save 1) has 6 seats, config.json 9: kept as "
        "state-6seats-dead-10-20.json (config.json back to 6 seats resumes it)",
        "* info state restored (save 4, from state-9seats-dead-10-20.json)"]
    assert back.table.to_dict() == nine and back.store.seq == 4
    assert sorted(back.fs.files) == ["state-6seats-dead-10-20.json", "state.json"]
    back.send("deal")
    assert back.store.seq == 5
    again = back.reboot({"seats": 6})
    assert again.take()[-1] == "* info state restored (save 1, from state-6seats-dead-10-20.json)"
    assert again.table.to_dict() == six_table


def test_a_table_kept_aside_comes_back_after_a_start_that_saved_nothing():
    rig = seated(3)
    other = rig.reboot({"rules": "moving", "stakes": [25, 50]})
    assert other.take() == [
        "* error saved table (save 3) plays rules dead, config.json moving: kept as "
        "state-9seats-dead-10-20.json (config.json back to rules dead, stakes 10/20 resumes "
        "it): clean start"]
    assert "state.json" not in other.fs.files  # nothing played: nothing saved
    back = other.reboot({"seats": 9})
    assert back.take() == ["* info state restored (save 3, from state-9seats-dead-10-20.json)"]
    assert back.statuses()[:4] == ["active", "active", "active", "empty"]


def test_a_damaged_table_kept_aside_is_left_alone():
    rig = seated(3)
    six = rig.reboot({"seats": 6})
    data = bytearray(six.fs.files["state-9seats-dead-10-20.json"])
    data[-5] ^= 4
    six.fs.files["state-9seats-dead-10-20.json"] = bytes(data)
    back = six.reboot({"seats": 9})
    assert back.take() == ["* error saved state unusable (state-9seats-dead-10-20.json bad "
                           "CRC): clean start"]
    assert back.statuses() == ["empty"] * 9
    assert "state-9seats-dead-10-20.json" in back.fs.files


def test_full_table_state_file_is_small():
    rig = Rig({"seats": 12})
    for s in range(1, 13):
        rig.send("sit %d" % s)
    rig.send("deal 12")
    for _ in range(5):
        rig.send("deal")
    rig.send("away 3")
    rig.send("deal")
    size = len(rig.fs.files["state.json"])
    # In words (format 4): well inside the state file's limit (store.READ_LIMIT).
    assert size < 2048, size


def test_events_from_commands_and_flash_failure():
    rig = seated(2)
    fs = rig.fs

    def broken(name, mode):
        raise OSError(28)
    fs.open = broken
    lines = rig.send("sit 5")
    assert lines[0] == "* seat 5 active"
    assert lines[1].startswith("* error save failed"), lines
    assert lines[2] == "ok"


def test_frames_stay_within_the_current_budget():
    cfg = {"leds": 60, "brightness": 255, "budget_ma": 300, "seats": 12}
    rig = Rig(cfg)
    for s in range(1, 13):
        rig.send("sit %d" % s)
    rig.press(0)
    rig.press(5)
    worst = 0
    for _ in range(200):
        rig.tick(7)
        worst = max(worst, R.estimate_ma(rig.strip.frame))
    rig.level(0, 0, 300)                       # whole-ring flash of the next-hand button
    rig.level(0, 1, 100)
    worst = max(worst, R.estimate_ma(rig.strip.frame))
    assert 0 < worst <= 300, worst


def test_the_loop_allocates_nothing_between_events():
    rig = seated(4)
    rig.send("deal 2")
    rig.send("away 3")
    rig.run(50)
    rig.pins[1].level = 0          # a press in progress: debounce and timing run too
    if ticks_heap_locked(rig):     # (MicroPython: CPython has nothing to measure)
        assert rig.strip.writes > 50


def test_table_api_used_is_the_contract():
    t = Table(seats=9, rules="dead", stakes=(10, 20))
    assert t.seats == 9 and t.rules == "dead" and tuple(t.stakes) == (10, 20)
    assert t.hand is None and t.hands == 0 and not t.can_undo()


if __name__ == "__main__":
    two_runtimes.run_all(globals())
