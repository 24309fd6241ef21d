"""Hand-for-hand at the table: `handforhand on|off`, the next-hand button's short press
saying "hand over" instead of dealing, the wait shown on the ring and in the state, the
room's `deal` ending it, a long press cancelling it, the mode off releasing it, nothing
saved, and nothing allocated per frame while the table waits (CPython and MicroPython)."""
import json

import two_runtimes
from dealerbutton import net
from dealerbutton import ring as R
from device_rig import Rig, ticks_heap_locked

TOURNAMENT = {"ante_kind": "bb", "levels": [
    {"sb": 25, "bb": 50, "minutes": 20},
    {"break": 10},
    {"sb": 50, "bb": 100, "ante": 100, "minutes": 20},
]}


def events(lines):
    return [x for x in lines if x.startswith("* ")]


def dealt(cfg=None, seats=3):
    """A table with seats players and its first hand dealt, hand-for-hand on."""
    rig = Rig(cfg or {"seats": 6, "leds": 24})
    for s in range(1, seats + 1):
        rig.send("sit %d" % s)
    rig.send("deal 1")
    assert rig.send("handforhand on") == ["* handforhand on", "ok"]
    return rig


def state(rig):
    reply = rig.reply("state")
    assert reply.startswith("ok {"), reply
    return json.loads(reply[3:])


def test_the_command_and_its_events():
    rig = Rig({"seats": 4})
    assert "handforhand" not in state(rig)          # off: not in the state at all
    assert rig.send("handforhand") == ["err usage handforhand on|off"]
    assert rig.send("handforhand maybe") == ["err usage handforhand on|off"]
    assert rig.send("handforhand on off") == ["err usage handforhand on|off"]
    assert rig.send("HandForHand ON") == ["* handforhand on", "ok"]
    assert rig.send("handforhand on") == ["ok"]      # sent again: no change, no event
    assert state(rig)["handforhand"] == "playing"
    assert rig.send("handforhand off") == ["* handforhand off", "ok"]
    assert rig.send("handforhand off") == ["ok"]
    assert "handforhand" not in state(rig)


def test_the_next_hand_press_says_hand_over_and_the_room_deals():
    rig = dealt()
    hands = rig.table.hands
    assert rig.send("press 0") == ["* handforhand waiting", "ok over"]
    assert rig.table.hands == hands and rig.ring.mode == R.WAITING
    assert state(rig)["handforhand"] == "waiting"
    assert rig.send("press 0") == ["ok over"]         # again while it waits: harmless
    lines = rig.send("deal")                         # the room's deal
    assert lines[0].startswith('* hand {"n":%d,' % (hands + 1)) and lines[1].startswith("ok {")
    assert rig.ring.mode == R.NORMAL and state(rig)["handforhand"] == "playing"
    assert rig.send("press 0") == ["* handforhand waiting", "ok over"]   # the next hand's end


def test_a_long_press_while_waiting_cancels_hand_over_and_undoes_nothing():
    rig = dealt()
    rig.send("press 0")
    before = rig.table.to_dict()
    assert rig.send("hold 0") == ["* handforhand playing", "ok cancel"]
    assert rig.table.to_dict() == before and rig.ring.mode == R.NORMAL
    assert state(rig)["handforhand"] == "playing"
    lines = rig.send("hold 0")                       # not waiting: the usual undo
    assert lines[0] == "* undo deal 1 (hand 1)" and lines[-1] == "ok undo"


def test_the_mode_off_releases_a_waiting_table_without_a_deal():
    rig = dealt()
    rig.send("press 0")
    assert rig.send("handforhand off") == ["* handforhand off", "ok"]
    assert rig.table.hands == 1 and rig.ring.mode == R.NORMAL
    assert "handforhand" not in state(rig)
    assert rig.send("press 0")[-1] == "ok deal"        # the button deals again


def test_before_the_first_hand_the_button_still_draws():
    rig = Rig({"seats": 4})
    for s in (1, 2, 3):
        rig.send("sit %d" % s)
    rig.send("handforhand on")
    assert rig.send("press 0") == ["ok draw"] and rig.ring.mode == R.DRAW
    assert events(rig.send("press 2"))[0].startswith('* hand {"n":1,"button":2')


def test_the_buttons_in_the_loop():
    rig = dealt()
    rig.run(300)
    assert events(rig.press(0)) == ["* handforhand waiting"]
    assert rig.table.hands == 1 and rig.ring.mode == R.WAITING
    assert rig.press(0) == []
    assert events(rig.hold(0)) == ["* handforhand playing"]
    assert rig.table.hands == 1 and rig.ring.mode == R.NORMAL


def test_the_waiting_look_dims_the_ring_under_one_white_led_going_round():
    rig = dealt()
    rig.run(300)
    normal = bytes(rig.strip.frame)
    rig.send("press 0")
    rig.run(300)                                      # the flash is over
    seen = []
    for _ in range(4):
        frame = bytes(rig.strip.frame)
        bright = [k for k in range(24) if frame[3 * k:3 * k + 3] == b"\x80\x80\x80"]
        assert len(bright) == 1, frame                # the white LED at brightness 128
        seen.append(bright[0])
        others = [k for k in range(24) if k != bright[0]]
        assert sum(frame[3 * k + j] for k in others for j in range(3)) < \
            sum(normal[3 * k + j] for k in others for j in range(3)) // 2
        rig.run(375, step=25)                         # 3 s a turn: 3 LEDs further on
    assert [(b - seen[0]) % 24 for b in seen] == [0, 3, 6, 9], seen
    rig.send("deal")
    rig.run(300)
    assert bytes(rig.strip.frame) != frame and rig.ring.mode == R.NORMAL


def test_waiting_allocates_nothing_per_loop_turn():
    rig = dealt()
    rig.send("press 0")
    rig.run(300)
    writes = rig.strip.writes
    if ticks_heap_locked(rig):
        assert rig.strip.writes > writes + 50 and rig.ring.mode == R.WAITING


def test_a_restart_plays_as_usual_until_the_room_sends_the_mode_again():
    rig = dealt()
    rig.send("press 0")
    rig = rig.reboot()
    assert "handforhand" not in state(rig) and rig.ring.mode == R.NORMAL
    assert rig.send("press 0")[-1] == "ok deal"


def test_during_a_break_the_hand_is_over_but_the_deal_waits():
    rig = dealt({"seats": 6, "leds": 24, "tournament": TOURNAMENT})
    rig.send("clock next")                            # the break
    assert rig.send("press 0") == ["* handforhand waiting", "ok over"]
    assert rig.send("deal") == ["err rule no hand during the break: 10:00 left"]
    assert state(rig)["handforhand"] == "waiting" and rig.ring.mode == R.WAITING
    rig.send("clock next")                            # the next level: the room's deal
    assert events(rig.send("deal"))[0].startswith('* hand {"n":2,')
    assert state(rig)["handforhand"] == "playing"


def test_a_pico_w_takes_it_from_the_cmd_topic_and_publishes_it():
    assert net.check_command(b"HandForHand On") == ("handforhand on", None)
    assert net.check_command(b"handforhand off") == ("handforhand off", None)
    assert net.check_command(b"handforhand maybe")[1].startswith("not a seat number")
    rig = dealt()
    n = net.Net(rig.app, {"room": "club", "table": "7"}, None, rig.now)
    rig.send("press 0")
    assert ',"handforhand":"waiting","hand":{' in n.state_text()


if __name__ == "__main__":
    two_runtimes.run_all(globals())
