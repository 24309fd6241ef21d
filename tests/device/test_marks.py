"""The floor's marks during a move between tables (`reserve N`, `release N`): set, refused,
shown in the state and on the ring, cleared by the table event that makes them moot (a sit
on the kept seat, by command or by its button; the leave of the player moving), never
saved, never undone, and the frames of a marked ring allocate nothing (CPython and
MicroPython)."""
import json

import two_runtimes
from dealerbutton import net
from dealerbutton import ring as R
from device_rig import Rig, scaled, ticks_heap_locked

GREEN = scaled("009E73")    # a reserved seat's colour
ORANGE = scaled("E69F00")   # a moving player's colour
WHITE = scaled("FFFFFF")
TOURNAMENT = {"levels": [{"sb": 25, "bb": 50, "minutes": 20}]}


def dealt(cfg=None, seated=(1, 2, 3)):
    """A table of 6 seats (2 LEDs each) with players in `seated` and a first hand dealt."""
    rig = Rig(cfg or {"seats": 6, "leds": 12})
    for s in seated:
        assert rig.reply("sit %d" % s) == "ok"
    assert rig.reply("deal %d" % seated[0]).startswith("ok {")
    return rig


def marks_of(rig):
    """Each seat's mark in the state reply (None: none)."""
    state = json.loads(rig.reply("state")[3:])
    return [s.get("mark") for s in state["seats"]]


def test_reserve_an_empty_seat_and_mark_a_player_moving():
    rig = dealt()
    assert rig.send("reserve 5") == ["* seat 5 reserved", "ok"]
    assert rig.send("reserve 2") == ["* seat 2 moving", "ok"]
    assert marks_of(rig) == [None, "moving", None, None, "reserved", None]
    assert rig.ring.status[5] == R.RESERVED and rig.ring.status[2] == R.MOVING
    assert rig.table.status(5) == "empty" and rig.table.status(2) == "active"   # the rules: as before
    assert rig.send("release 5") == ["* seat 5 released", "ok"]
    assert rig.send("release 2") == ["* seat 2 released", "ok"]
    assert marks_of(rig) == [None] * 6
    assert rig.ring.status[5] == R.EMPTY and rig.ring.status[2] == R.ACTIVE


def test_refusals_name_the_seat_and_change_nothing():
    rig = dealt()
    rig.reply("reserve 5")
    rig.reply("reserve 2")
    assert rig.send("reserve 5") == ["err rule seat 5 is reserved already: release it first"]
    assert rig.send("reserve 2") == ["err rule seat 2 is moving already: release it first"]
    assert rig.send("release 4") == ["err rule seat 4 has no mark: nothing to release"]
    assert rig.send("reserve 7") == ["err seat seat 7 is not on this table (1..6)"]
    assert rig.send("release x") == ["err usage seat must be 1..6, not x"]
    assert rig.send("reserve") == ["err usage reserve N (an empty seat: kept; a player: moving)"]
    assert rig.send("release 1 2") == ["err usage release N"]
    assert marks_of(rig) == [None, "moving", None, None, "reserved", None]


def test_the_ring_shows_each_mark_swapping_places_with_white():
    rig = dealt()
    rig.reply("reserve 5")
    rig.reply("reserve 6")
    rig.reply("reserve 2")
    looks = set()
    for _ in range(40):   # two seconds of frames
        rig.tick(50)
        looks.add((tuple(rig.seat_leds(5)), tuple(rig.seat_leds(2))))
    # Seat 2 is also the small blind (hand 1: button 1, SB 2, BB 3): it keeps its first LED.
    sky = scaled("56B4E9")
    assert looks == {((GREEN, WHITE), (sky, ORANGE)), ((WHITE, GREEN), (sky, WHITE))}, looks
    assert rig.seat_leds(6) in ([GREEN, WHITE], [WHITE, GREEN])


def test_a_sit_on_the_kept_seat_seats_the_player_and_releases_it():
    rig = dealt()
    rig.reply("reserve 5")
    assert rig.send("sit 5") == ["* seat 5 waiting", "* seat 5 released", "ok"]
    assert marks_of(rig)[4] is None
    assert rig.ring.status[5] == R.WAIT_BB   # a cash game: a new player waits for the BB


def test_a_press_on_the_kept_seat_seats_the_player_and_releases_it():
    rig = dealt()
    rig.reply("reserve 5")
    assert rig.press(5) == ["* seat 5 waiting", "* seat 5 released"]
    assert rig.table.status(5) == "waiting" and marks_of(rig)[4] is None
    assert rig.ring.status[5] == R.WAIT_BB


def test_at_a_tournament_the_moved_player_comes_in_as_t2_says():
    rig = dealt({"seats": 6, "leds": 12, "tournament": TOURNAMENT}, seated=(1, 2, 3, 4))
    rig.reply("reserve 6")
    # Hand 1: button 1, SB 2, BB 3. Seat 6 is not the next hand's button or SB position:
    # the player is dealt in from the next hand, posting nothing (T2).
    assert rig.send("sit 6") == ["* seat 6 active", "* seat 6 released", "ok"]
    hand = json.loads(rig.reply("deal")[3:])
    assert 6 in hand["dealt"] and "6" not in hand["posts"], hand


def test_the_moving_player_leaving_releases_his_mark():
    rig = dealt()
    rig.reply("reserve 2")
    assert rig.send("leave 2") == ["* seat 2 empty", "* seat 2 released", "ok"]
    assert rig.ring.status[2] == R.EMPTY
    # By his button too (held: he leaves).
    rig.reply("reserve 3")
    assert rig.hold(3) == ["* seat 3 empty", "* seat 3 released"]


def test_a_moving_player_who_steps_away_stays_marked():
    rig = dealt()
    rig.reply("reserve 3")
    assert rig.send("away 3") == ["* seat 3 away", "ok"]
    assert marks_of(rig)[2] == "moving" and rig.ring.status[3] == R.MOVING


def test_undo_leaves_the_marks_alone():
    """An undo undoes the last table event, never a mark: a mark that event spent does not
    come back, and a mark the undo makes moot goes."""
    rig = dealt()
    rig.reply("reserve 5")
    rig.reply("sit 5")
    assert rig.send("undo") == ["* undo sit 5", "* seat 5 empty", "ok"]
    assert marks_of(rig)[4] is None
    rig.reply("leave 1")
    rig.reply("reserve 1")               # the seat just left, kept for a player coming
    assert rig.send("undo") == ["* undo leave 1", "* seat 1 active", "* seat 1 released",
                                "ok"]
    assert marks_of(rig)[0] is None and rig.ring.status[1] == R.ACTIVE


def test_marks_are_not_saved_and_a_power_cut_forgets_them():
    rig = dealt()
    saves = rig.store.seq
    rig.reply("reserve 5")
    rig.reply("reserve 2")
    rig.tick(50)
    assert rig.store.seq == saves          # nothing of the table changed
    after = rig.reboot()
    assert marks_of(after) == [None] * 6
    assert after.ring.status[5] == R.EMPTY and after.ring.status[2] == R.ACTIVE


def test_the_floor_may_send_both_over_mqtt():
    assert net.check_command(b"reserve 4") == ("reserve 4", None)
    assert net.check_command(b"RELEASE 12") == ("release 12", None)
    assert net.check_command(b"reserve 4 post")[0] == "reserve 4 post"   # the device says no
    rig = dealt()
    assert rig.reply("reserve 4 post").startswith("err usage reserve N")


def test_the_frames_of_a_marked_ring_allocate_nothing():
    rig = dealt()
    rig.reply("reserve 5")
    rig.reply("reserve 2")
    rig.tick(50)
    ticks_heap_locked(rig)   # (MicroPython: a frame that allocates raises MemoryError)


if __name__ == "__main__":
    two_runtimes.run_all(globals())
