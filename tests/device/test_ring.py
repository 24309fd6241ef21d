"""LED ring renderer: statuses and roles -> colours, mapping, priorities with few LEDs, flashes, modes,
brightness, the current limit and no allocation per frame (CPython and MicroPython)."""
import sys

import two_runtimes
from dealerbutton import ring as R
from dealerbutton.ring import (
    ACTIVE,
    AWAY,
    EMPTY,
    MOVING,
    RESERVED,
    WAIT_BB,
    WAIT_POST,
    Ring,
    estimate_ma,
)
from dealerbutton.ring import palette as P
from dealerbutton.ticks import TICKS_MAX
from test_buttons import Lcg

# The renderer as it drew every LED of every frame.
sys.path.append(__file__.rsplit("/", 3)[0] + "/host/dealerbutton_host/sim")

OFF = "000000"
WHITE = "FFFFFF"
SKY = "56B4E9"  # small blind
ORANGE = "E69F00"  # big blind
GREEN = "009E73"  # first to act (at the top of its pulse)
VERMILLION = "D55E00"  # refused
YELLOW = "F0E442"  # owes a post (blink on)
# Levels of the default palette (brightness 255, no current limit):
ACTIVE_C = "202020"  # white * 32 / 255
DEAD_C = "484848"  # white * 72 / 255
AWAY_C = "00324E"  # 0072B2 * 112 / 255
WAIT_BB_C = "663C53"  # CC79A7 * 128 / 255
POST_LOW = "25230A"  # F0E442 * 40 / 255
PULSE_LOW_WHITE = "282828"  # white * 40 / 255 (first to act, bottom of the pulse)
T_FULL = 1000  # pulse at its top, the owes-a-post blink on


def leds(r):
    b = r.buf
    return [_hex(b, i) for i in range(r.leds)]


def _hex(b, i):
    return "%02X%02X%02X" % (b[3 * i], b[3 * i + 1], b[3 * i + 2])


STATUSES = (EMPTY, ACTIVE, AWAY, WAIT_BB, WAIT_POST, RESERVED, MOVING)
ROLES = ("button", "sb", "bb", "first_to_act", "kill")
# The 32 sets of roles one seat can hold, each as the roles' names.
ROLE_SETS = [" ".join([ROLES[i] for i in range(5) if bits >> i & 1]) for bits in range(32)]
# The 224 things a seat can show: a status (or a mark) and a set of roles.
EVERY_LOOK = [(status, roles) for status in STATUSES for roles in ROLE_SETS]


def put(r, seat, status, roles=""):
    """seat's status, and seat for each role named in roles (e.g. "button sb")."""
    r.status[seat] = status
    for role in roles.split():
        setattr(r, role, seat)


def open_ring(leds_, seats, status=None, roles=None, **kw):
    """A ring at full brightness without a current limit; status: seat -> status, roles:
    role name -> seat."""
    kw.setdefault("brightness", 255)
    kw.setdefault("budget_ma", 100000)
    r = Ring(leds_, seats, **kw)
    if status:
        for seat in status:
            r.status[seat] = status[seat]
    if roles:
        for role in roles:
            setattr(r, role, roles[role])
    return r


NINE = {1: ACTIVE, 2: ACTIVE, 3: ACTIVE, 4: ACTIVE, 5: AWAY, 6: WAIT_BB, 7: WAIT_POST,
        8: EMPTY, 9: ACTIVE}
NINE_ROLES = {"button": 1, "sb": 2, "bb": 3, "first_to_act": 4}


def test_nine_seats_on_24_leds_every_status_and_role():
    r = open_ring(24, 9, NINE, NINE_ROLES)
    r.render(T_FULL)
    # Arcs of 2, 3, 3, 2, 3, 3, 2, 3, 3 LEDs (seat s starts at (s-1)*24//9).
    assert leds(r) == [WHITE, WHITE, SKY, SKY, SKY, ORANGE, ORANGE, ORANGE, GREEN, GREEN,
                       AWAY_C, AWAY_C, AWAY_C, WAIT_BB_C, WAIT_BB_C, WAIT_BB_C, YELLOW, YELLOW,
                       OFF, OFF, OFF, ACTIVE_C, ACTIVE_C, ACTIVE_C], leds(r)


def test_animations_first_to_act_breathes_owes_a_post_blinks_others_steady():
    r = open_ring(24, 9, NINE, NINE_ROLES)
    r.render(0)
    at0 = leds(r)
    r.render(500)
    at500 = leds(r)
    r.render(T_FULL)
    at1000 = leds(r)
    # First to act (seat 4, LEDs 8-9): low, half-way, full.
    assert at0[8] == "001812", at0[8]  # 009E73 * 40 / 255
    assert at0[8] < at500[8] < at1000[8] == GREEN, (at0[8], at500[8])
    # Owes a post (seat 7, LEDs 16-17): on in the first half second, low in the second.
    assert at0[16] == YELLOW and at500[16] == POST_LOW and at1000[16] == YELLOW
    # Everything else is steady.
    for i in list(range(0, 8)) + list(range(10, 16)) + list(range(18, 24)):
        assert at0[i] == at500[i] == at1000[i], i


def test_waiting_for_bb_and_owing_a_post_are_distinct_in_colour_and_animation():
    r = open_ring(24, 2, {1: WAIT_BB, 2: WAIT_POST})
    for t in range(0, 2000, 100):
        r.render(t)
        assert leds(r)[0] == WAIT_BB_C
    r2 = open_ring(24, 2, {1: WAIT_POST})
    frames = {}
    for t in range(0, 2000, 100):
        r2.render(t)
        frames[leds(r2)[0]] = 1
    assert sorted(frames) == [POST_LOW, YELLOW], sorted(frames)
    assert WAIT_BB_C not in frames


def test_a_reserved_seat_and_a_moving_player_swap_their_colour_with_white():
    """The floor's marks: an empty seat kept for a player coming in (bluish green) and a
    player about to move out (orange) share their arc with white, the two swapping places
    every half second."""
    status = dict(NINE)
    status[8] = RESERVED
    status[9] = MOVING
    r = open_ring(24, 9, status, NINE_ROLES)
    r.render(0)
    first = leds(r)
    r.render(500)
    second = leds(r)
    # Seats 8 and 9: LEDs 18-20 and 21-23 (the first thing gets the odd LED).
    assert first[18:24] == [GREEN, GREEN, WHITE, ORANGE, ORANGE, WHITE], first[18:24]
    assert second[18:24] == [WHITE, WHITE, GREEN, WHITE, WHITE, ORANGE], second[18:24]
    r.render(2000)   # (first to act breathes every 2 s)
    assert leds(r) == first
    # One LED a seat: the colour, then white.
    one = open_ring(12, 12, {5: RESERVED, 6: MOVING})
    one.render(0)
    assert leds(one)[4:6] == [GREEN, ORANGE]
    one.render(500)
    assert leds(one)[4:6] == [WHITE, WHITE]


def test_the_marks_look_like_nothing_else():
    """Over two seconds, on one LED a seat and on three, a reserved seat and a moving player
    give sequences of colours no other status or role gives, nor each other."""
    for leds_, seats in ((12, 12), (36, 12)):
        seen = {}
        for status, roles in EVERY_LOOK:
            r = open_ring(leds_, seats)
            put_roles_apart(r, 1, roles)
            r.status[1] = status
            frames = []
            for t in range(0, 2000, 100):
                r.render(t)
                frames.append(" ".join([leds(r)[k] for k in r.arc(1)]))
            key = ",".join(frames)
            seen.setdefault(key, []).append((status, roles))
        for mark in (RESERVED, MOVING):
            for key in seen:
                if (mark, "") in seen[key]:
                    assert seen[key] == [(mark, "")], (leds_, mark, seen[key])


def test_a_dead_button_on_a_reserved_seat_is_dim():
    r = open_ring(12, 12, {3: RESERVED}, {"button": 3})
    r.render(0)
    assert leds(r)[2] == DEAD_C


def test_heads_up_on_12_seats_12_leds_priority_button_first():
    # Button = SB = first to act (heads-up), one LED per seat.
    r = open_ring(12, 12, {3: ACTIVE, 8: ACTIVE},
                  {"button": 3, "sb": 3, "first_to_act": 3, "bb": 8})
    r.render(T_FULL)
    expect = [OFF] * 12
    expect[2] = WHITE
    expect[7] = ORANGE
    assert leds(r) == expect, leds(r)
    # The pulse still tells "first to act" on the single LED.
    r.render(0)
    assert leds(r)[2] == PULSE_LOW_WHITE, leds(r)[2]
    assert leds(r)[7] == ORANGE


def test_priority_order_with_one_led_per_seat():
    cases = [
        (ACTIVE, "button sb bb first_to_act", WHITE),
        (ACTIVE, "sb bb first_to_act", ORANGE),
        (ACTIVE, "sb first_to_act", SKY),
        (ACTIVE, "first_to_act", GREEN),
        (AWAY, "button", DEAD_C),
        (EMPTY, "button", DEAD_C),
        (AWAY, "", AWAY_C),
        (WAIT_BB, "sb", SKY),
        (WAIT_POST, "", YELLOW),
        (WAIT_BB, "", WAIT_BB_C),
        (ACTIVE, "", ACTIVE_C),
        (EMPTY, "", OFF),
    ]
    for status, roles, colour in cases:
        r = open_ring(12, 12)
        put(r, 5, status, roles)
        r.render(T_FULL)
        assert leds(r)[4] == colour, (status, roles, leds(r)[4], colour)


def test_split_arcs_with_room_show_roles_and_status_side_by_side():
    # 6 seats on 24 LEDs: arcs of 4 = 3 lit + a dark gap; one seat at a time.
    cases = [
        (1, ACTIVE, "button first_to_act", [WHITE, WHITE, GREEN, OFF]),
        (2, ACTIVE, "sb", [SKY, SKY, SKY, OFF]),
        (3, ACTIVE, "bb", [ORANGE, ORANGE, ORANGE, OFF]),
        (4, AWAY, "button", [DEAD_C, DEAD_C, AWAY_C, OFF]),
        (5, EMPTY, "button", [DEAD_C, DEAD_C, DEAD_C, OFF]),
        (6, WAIT_POST, "sb", [SKY, SKY, YELLOW, OFF]),
    ]
    for seat, status, roles, colours in cases:
        r = open_ring(24, 6)
        put(r, seat, status, roles)
        r.render(T_FULL)
        a = 4 * (seat - 1)
        expect = [OFF] * a + colours + [OFF] * (20 - a)
        assert leds(r) == expect, (seat, leds(r))


def test_sixty_leds_ten_seats_and_uneven_arcs():
    r = open_ring(60, 10, {1: ACTIVE, 2: ACTIVE, 3: ACTIVE, 10: ACTIVE},
                  {"button": 1, "sb": 2, "bb": 3})
    r.render(T_FULL)
    got = leds(r)
    assert got[0:6] == [WHITE] * 5 + [OFF]
    assert got[6:12] == [SKY] * 5 + [OFF]
    assert got[12:18] == [ORANGE] * 5 + [OFF]
    assert got[18:54] == [OFF] * 36
    assert got[54:60] == [ACTIVE_C] * 5 + [OFF]
    # 16 LEDs, 9 seats: arcs of 1 or 2, every seat keeps at least one LED.
    r = open_ring(16, 9)
    sizes = [len(r.arc(s)) for s in range(1, 10)]
    assert sizes == [1, 2, 2, 2, 1, 2, 2, 2, 2], sizes
    assert sorted(sum([r.arc(s) for s in range(1, 10)], [])) == list(range(16))


def test_offset_and_reverse_mapping():
    r = open_ring(24, 8, offset=5)
    assert r.arc(1) == [5, 6, 7]
    assert r.arc(8) == [2, 3, 4]
    r = open_ring(24, 8, offset=5, reverse=True)
    assert r.arc(1) == [5, 4, 3]
    assert r.arc(2) == [2, 1, 0]
    assert r.arc(8) == [8, 7, 6]
    assert r.arc(0) == [(5 - k) % 24 for k in range(24)]
    put(r, 1, ACTIVE, "button")
    put(r, 2, ACTIVE, "sb")
    put(r, 8, ACTIVE, "bb")
    r.render(T_FULL)
    got = leds(r)
    for i in range(24):
        if i in (3, 4, 5):
            assert got[i] == WHITE, (i, got[i])
        elif i in (0, 1, 2):
            assert got[i] == SKY, (i, got[i])
        elif i in (6, 7, 8):
            assert got[i] == ORANGE, (i, got[i])
        else:
            assert got[i] == OFF, (i, got[i])
    # An offset past the ring wraps; a negative one counts back.
    assert open_ring(24, 8, offset=29).arc(1) == [5, 6, 7]
    assert open_ring(24, 8, offset=-1).arc(1) == [23, 0, 1]


def test_flash_ok_is_one_bright_flash_on_the_seat_then_expires():
    r = open_ring(24, 9, NINE, NINE_ROLES)
    ref = open_ring(24, 9, NINE, NINE_ROLES)
    r.flash(6, True, 5000)
    for t in (5000, 5100, 5249):
        r.render(t)
        ref.render(t)
        got = leds(r)
        normal = leds(ref)
        assert got[13:16] == [WHITE] * 3, (t, got[13:16])
        assert got[:13] + got[16:] == normal[:13] + normal[16:]
    assert r.flashing
    r.render(5250)
    ref.render(5250)
    assert leds(r) == leds(ref)
    assert not r.flashing


def test_flash_refused_is_a_double_blink_in_the_warning_colour():
    r = open_ring(24, 9, NINE, NINE_ROLES)
    r.render(T_FULL)
    normal = leds(r)
    r.flash(8, False, 1000)
    states = []
    for t in range(1000, 1600, 60):
        r.render(t)
        states.append(leds(r)[18])
    # on (0-119), off (120-239), on (240-359), off (360-479), then back to normal (empty).
    assert states == [VERMILLION, VERMILLION, OFF, OFF, VERMILLION, VERMILLION, OFF, OFF,
                      OFF, OFF], states
    r.render(T_FULL + 2000)
    assert leds(r) == normal
    assert not r.flashing
    # Distinct from an accepted press on the same seat.
    r.flash(8, True, 3000)
    r.render(3000)
    assert leds(r)[18] == WHITE


def test_flash_on_seat_0_covers_the_whole_ring_and_survives_the_ticks_wrap():
    r = open_ring(24, 9, NINE, NINE_ROLES)
    start = TICKS_MAX - 100
    r.flash(0, True, start)
    r.render(start)
    assert leds(r) == [WHITE] * 24
    r.render(100)  # 201 ms later, across the wrap
    assert leds(r) == [WHITE] * 24
    r.render(160)  # 261 ms later
    assert WHITE not in leds(r)[2:]
    assert not r.flashing


def test_flash_of_an_unknown_seat_is_refused():
    r = open_ring(24, 9)
    for seat in (-1, 10):
        try:
            r.flash(seat, True, 0)
        except ValueError as e:
            assert "seat %d" % seat in str(e)
        else:
            raise AssertionError("seat %d accepted" % seat)


def test_draw_mode_chases_around_the_ring_over_the_seats():
    r = open_ring(24, 9, {1: ACTIVE, 5: ACTIVE})
    r.mode = R.DRAW
    step = 2000 // 24
    heads = []
    for i in range(30):
        r.render(i * step)
        got = leds(r)
        lit = [k for k in range(24) if got[k] == GREEN]
        assert len(lit) == 1, got
        heads.append(lit[0])
        tail = [k for k in range(24) if got[k] not in (GREEN, OFF, ACTIVE_C)]
        assert tail == sorted([(lit[0] - 1) % 24, (lit[0] - 2) % 24]), (got, tail)
    assert heads == [i % 24 for i in range(30)], heads
    # The seated players still show where the chase is not.
    r.render(12 * step)
    assert leds(r)[0:2] == [ACTIVE_C, ACTIVE_C]
    # A press gets its flash in DRAW mode too.
    r.flash(3, True, 12 * step)
    r.render(12 * step)
    assert leds(r)[5:8] == [WHITE] * 3


def test_waiting_mode_dims_the_ring_under_a_white_led_going_round():
    r = open_ring(24, 9, NINE, NINE_ROLES)
    step = 3000 // 24
    heads = []
    for i in range(30):
        t = T_FULL // step * step + i * step
        r.mode = R.NORMAL
        r.render(t)
        normal = leds(r)
        r.mode = R.WAITING
        r.render(t)
        got = leds(r)
        lit = [k for k in range(24) if got[k] == WHITE]
        assert len(lit) == 1, got
        heads.append(lit[0])
        for k in range(24):   # every other LED: as without the wait, at a third
            if k != lit[0]:
                want = normal[k]
                assert got[k] == "".join(["%02X" % (int(want[j:j + 2], 16) * 85 >> 8)
                                          for j in (0, 2, 4)]), (k, got[k], want)
    assert [(h - heads[0]) % 24 for h in heads] == [i % 24 for i in range(30)], heads


def test_error_mode_alternates_and_ignores_the_seats():
    r = open_ring(24, 9, NINE, NINE_ROLES)
    r.mode = R.ERROR
    r.render(0)
    a = leds(r)
    r.render(499)
    assert leds(r) == a
    r.render(500)
    b = leds(r)
    err = "A04600"  # D55E00 * 192 / 255
    assert a == [err, OFF] * 12, a
    assert b == [OFF, err] * 12, b
    r.mode = R.NORMAL
    r.render(T_FULL)
    assert leds(r)[0] == WHITE


def test_unknown_statuses_are_dark():
    r = open_ring(24, 3, {1: 7, 2: 8, 3: 9})
    r.render(0)
    assert leds(r) == [OFF] * 24


def test_brightness_scales_every_channel():
    r = open_ring(24, 9, NINE, NINE_ROLES, brightness=128)
    r.render(T_FULL)
    full = open_ring(24, 9, NINE, NINE_ROLES)
    full.render(T_FULL)
    for i in range(72):
        assert r.buf[i] == full.buf[i] * 128 // 255, i
    r.brightness = 0
    r.render(T_FULL)
    assert leds(r) == [OFF] * 24
    assert r.ma == 24


def test_palette_override_and_errors():
    r = open_ring(24, 9, NINE, NINE_ROLES, palette={"bb": "FF0000", "active": "00ff00"})
    r.render(T_FULL)
    got = leds(r)
    assert got[5:8] == ["FF0000"] * 3
    assert got[21] == "002000"
    assert got[2] == SKY
    for bad, message in (({"zz": "FF0000"}, "palette.zz: unknown role"),
                         ({"bb": "red"}, "palette.bb: 'red' is not a colour \"RRGGBB\""),
                         ({"sb": "12345"}, "palette.sb: '12345' is not a colour \"RRGGBB\""),
                         ({"sb": "+12345"}, "palette.sb: '+12345' is not a colour \"RRGGBB\""),
                         ({"away": 7}, "palette.away: 7 is not a colour \"RRGGBB\"")):
        try:
            Ring(24, 9, palette=bad)
        except ValueError as e:
            assert str(e) == message, (str(e), message)
        else:
            raise AssertionError("bad palette accepted: %r" % bad)
    assert R.is_colour("00ff9A") and not R.is_colour("00ff9") and not R.is_colour(0xFF)
    try:
        Ring(24, 9, palette={"bb": "red"})
    except ValueError as e:
        assert "palette.bb" in str(e)
    else:
        raise AssertionError("bad palette accepted")
    assert len(R.ROLES) == len(R.DEFAULT_PALETTE)


def test_the_built_in_default_palette_is_default_palette():
    """Ring keeps its default colours as bytes: the same as DEFAULT_PALETTE given as an
    override, in every role (seats, flashes, the draw chase, the error pattern)."""
    given = {}
    for i in range(len(R.ROLES)):
        given[R.ROLES[i]] = R.DEFAULT_PALETTE[i]
    frames = []
    for palette in (None, given):
        r = open_ring(24, 9, NINE, NINE_ROLES, palette=palette)
        shots = []
        r.render(T_FULL)
        shots.append(leds(r))
        r.flash(2, True, T_FULL)
        r.render(T_FULL + 10)
        shots.append(leds(r))
        r.flash(3, False, T_FULL)
        r.render(T_FULL + 10)
        shots.append(leds(r))
        for mode in (R.DRAW, R.ERROR):
            r.mode = mode
            r.render(T_FULL + 1000)
            shots.append(leds(r))
        frames.append(shots)
    assert frames[0] == frames[1], frames


def test_constructor_refuses_bad_settings():
    bad = [
        ((24, 1), {}, "seats: 1"),
        ((24, 13), {}, "seats: 13"),
        ((8, 9), {}, "leds: 8"),
        ((24, 9), {"brightness": 256}, "brightness: 256"),
        ((24, 9), {"brightness": -1}, "brightness: -1"),
        ((60, 9), {"budget_ma": 60}, "budget_ma: 60"),
    ]
    for args, kw, text in bad:
        try:
            Ring(*args, **kw)
        except ValueError as e:
            assert text in str(e), (str(e), text)
        else:
            raise AssertionError("accepted %r %r" % (args, kw))


def test_estimate_ma_follows_the_wled_model():
    assert estimate_ma(bytearray(3 * 24)) == 24
    assert estimate_ma(bytearray([255, 255, 255])) == 56
    assert estimate_ma(bytearray([255, 0, 0] * 10)) == 10 * 55 // 3 + 10
    assert estimate_ma(bytearray([255] * 3 * 60)) == 60 * 55 + 60


def put_roles_apart(r, seat, roles):
    """The roles named in roles on seat, the others on the seat after it."""
    other = seat % r.seats + 1
    for role in ROLES:
        setattr(r, role, seat if role in roles.split() else other)


def test_every_status_and_role_on_2_to_12_seats_and_12_16_24_60_leds_stays_under_budget():
    frames = 0
    for leds_ in (12, 16, 24, 60):
        for seats in range(2, 13):
            if seats > leds_:
                continue
            for budget in (400, 150):
                r = Ring(leds_, seats, brightness=255, budget_ma=budget)
                for i in range(len(EVERY_LOOK)):
                    status, roles = EVERY_LOOK[i]
                    for seat in range(1, seats + 1):
                        r.status[seat] = status
                    put_roles_apart(r, 1 + i % seats, roles)
                    for t in (0, 1000):
                        r.render(t)
                        frames += 1
                        ma = estimate_ma(r.buf)
                        assert ma <= budget, (leds_, seats, status, roles, t, ma)
                        assert ma == r.ma
    assert frames == 2 * 2 * len(EVERY_LOOK) * 11 * 4


def test_mixed_tables_flashes_and_modes_stay_under_budget():
    x = 12345
    for leds_ in (12, 16, 24, 60):
        for seats in range(2, min(12, leds_) + 1):
            r = Ring(leds_, seats, brightness=255)
            for n in range(20):
                for seat in range(1, seats + 1):
                    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                    r.status[seat] = STATUSES[(x >> 8) % len(STATUSES)]
                for role in ROLES:  # on a seat, or nobody's (0)
                    x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                    setattr(r, role, (x >> 8) % (seats + 1))
                r.mode = (R.NORMAL, R.DRAW, R.ERROR, R.WAITING)[n % 4]
                r.flash(n % (seats + 1), n % 2 == 0, 0)
                for t in (0, 130, 250, 700):
                    r.render(t)
                    assert estimate_ma(r.buf) <= 400, (leds_, seats, n, t)


def test_limit_scales_down_only_when_needed_and_uses_the_budget():
    # A full white ring of 60 LEDs would draw 3360 mA: scaled to just under 400.
    r = Ring(60, 10, brightness=255)
    r.flash(0, True, 0)  # the next-hand button's flash: full white over the whole ring
    r.render(0)
    assert 380 <= r.ma <= 400, r.ma
    lit = [r.buf[i] for i in range(180) if r.buf[i]]
    assert min(lit) == max(lit), "the limit scales every LED alike"
    # A dim frame under budget is left exactly as it is.
    r2 = open_ring(60, 10, {1: ACTIVE, 2: ACTIVE}, {"button": 1})
    r2.render(0)
    r3 = Ring(60, 10, brightness=255, budget_ma=400)
    put(r3, 1, ACTIVE, "button")
    put(r3, 2, ACTIVE)
    r3.render(0)
    assert r3.buf == r2.buf
    assert r3.ma < 400


def full_table(r, seats):
    for seat in range(1, seats + 1):
        r.status[seat] = ACTIVE
    put(r, 1, ACTIVE, "button")
    put(r, 2, ACTIVE, "sb")
    put(r, 3, ACTIVE, "bb")
    put(r, 4, ACTIVE, "first_to_act")


def test_a_ring_over_budget_settles_at_a_level_that_fits():
    """Over budget, the first frames are scaled down; then the ring draws at a level that
    fits (no frame scaled, the steady seats as bright from frame to frame), and finds a
    higher level again when fewer seats are lit."""
    r = Ring(60, 12, brightness=255, budget_ma=400)
    full_table(r, 12)
    scaled = []
    for t in range(0, 6000, 25):
        r.render(t)
        assert r.ma <= 400, (t, r.ma)
        scaled.append(r._fit)
    fit = r._fit
    assert fit < 255
    seat9 = r.arc(9)[0]
    steady = set()
    for t in range(6000, 9000, 25):
        r.render(t)
        assert r.ma <= 400
        assert r._fit == fit, "the level moves only when the picture changes"
        steady.add(bytes(r.buf[3 * seat9:3 * seat9 + 3]))
    assert len(steady) == 1, steady
    # Fewer seats lit: the ring draws brighter again, still within budget.
    for seat in range(5, 13):
        r.status[seat] = EMPTY
    r.render(9000)
    r.render(9025)
    assert r._fit > fit
    assert r.ma <= 400


def test_a_press_s_light_does_not_lower_the_level():
    r = Ring(60, 12, brightness=255, budget_ma=400)
    full_table(r, 12)
    for t in range(0, 6000, 25):
        r.render(t)
    fit = r._fit
    r.flash(0, True, 6000)   # the whole ring white: far over budget, scaled
    r.render(6000)
    assert r.ma <= 400
    assert r._fit == fit


def test_a_ring_in_the_strip_s_colour_order_is_the_rgb_frame_reordered():
    """A strip that sends frames as they are (CircuitPython's PIO strip) gets them in its
    own colour order; `leds` still reports R, G, B."""
    from dealerbutton.protocol import leds_text

    for order in ("GRB", "BRG"):
        rgb = open_ring(24, 9, brightness=128)
        other = open_ring(24, 9, brightness=128, order=order)
        for r in (rgb, other):
            put(r, 1, ACTIVE, "button")
            put(r, 2, ACTIVE, "sb")
            put(r, 3, ACTIVE, "bb first_to_act")
            put(r, 5, WAIT_POST)
            put(r, 6, AWAY)
            r.render(700)
        for led in range(24):
            for c in range(3):
                assert other.buf[3 * led + c] == rgb.buf[3 * led + "RGB".index(order[c])]
        assert leds_text(other.buf, order) == leds_text(rgb.buf)
    try:
        Ring(24, 9, order="GRBW")
    except ValueError as exc:
        assert "order" in str(exc)
    else:
        raise AssertionError("an order of four colours is not a ring's")


def test_render_allocates_nothing():
    r = Ring(60, 12)
    for seat in range(1, 13):
        r.status[seat] = STATUSES[seat % len(STATUSES)]
    put(r, 2, ACTIVE, "button first_to_act")
    put(r, 3, ACTIVE, "sb")
    put(r, 4, WAIT_POST, "bb")
    r.render(0)

    def seven_seconds_of_frames():
        t = 0
        while t < 3000:
            if t % 500 < 7:  # a seat steps away, the roles move on: seats drawn again
                r.status[5] = AWAY if r.status[5] != AWAY else ACTIVE
                r.button = r.button % 12 + 1
                r.sb = r.sb % 12 + 1
                r.bb = r.bb % 12 + 1
                r.first_to_act = r.first_to_act % 12 + 1
            r.render(t)
            t += 7
        r.flash(3, False, t)
        r.mode = R.DRAW
        while t < 6000:
            r.render(t)
            t += 7
        r.flash(0, True, t)
        r.mode = R.ERROR
        while t < 7000:
            r.render(t)
            t += 7
        r.mode = R.WAITING
        while t < 8000:
            r.render(t)
            t += 7
        estimate_ma(r.buf)

    grown = two_runtimes.allocated(seven_seconds_of_frames)
    assert grown in (None, 0), grown


def test_a_kill_blinks_vermilion_on_its_seat_beside_the_blinds():
    r = open_ring(24, 6, status={s: ACTIVE for s in range(1, 7)},
                  roles={"button": 1, "sb": 2, "bb": 3, "kill": 4})
    r.render(0)
    arc = r.arc(4)
    on = [leds(r)[i] for i in arc]
    assert on == ["D55E00", "D55E00", "D55E00", "000000"], on   # its own colour, then the gap
    r.render(600)
    off = [leds(r)[i] for i in arc]
    assert off[0] != "D55E00" and off[0] != "000000", off   # the off half of its blink
    r.bb = 4   # the kill on the big blind's seat: the BB first, then the kill
    r.render(0)
    both = [leds(r)[i] for i in arc]
    assert both[0] == "E69F00" and both[2] == "D55E00", both
    r.kill = 0
    r.render(0)
    assert [leds(r)[i] for i in arc][:3] == ["E69F00"] * 3


def test_palette_roles_by_name_match_palette_roles():
    names = ("button", "sb", "bb", "first", "active", "away", "wait_bb", "wait_post", "ok",
             "refused", "draw", "error", "kill", "reserved", "moving")
    values = (R.ROLE_BUTTON, R.ROLE_SB, R.ROLE_BB, R.ROLE_FIRST, R.ROLE_ACTIVE, R.ROLE_AWAY,
              R.ROLE_WAIT_BB, R.ROLE_WAIT_POST, R.ROLE_OK, R.ROLE_REFUSED, R.ROLE_DRAW,
              R.ROLE_ERROR, R.ROLE_KILL, P.ROLE_RESERVED, P.ROLE_MOVING)
    for i in range(len(names)):
        assert R.ROLES[values[i]] == names[i], (names[i], values[i])
    assert len(R.ROLES) == len(names)


def test_a_press_on_the_button_alone_flashes_dark():
    """The button alone on an active seat lights its whole arc white, the flash's colour:
    its accepted press flashes the arc dark instead, so that the press shows; any other
    seat flashes white, and a palette that gives the button its own colour keeps the
    white flash."""
    ring = open_ring(24, 9, {3: ACTIVE, 4: ACTIVE}, {"button": 3})
    assert ring.shows_button_alone(3) and not ring.shows_button_alone(4)
    ring.render(1000)
    white = [leds(ring)[k] for k in ring.arc(3)]
    assert len(set(white)) == 1 and white[0] != "000000", white
    ring.flash(3, True, 1000)
    ring.render(1010)
    assert [leds(ring)[k] for k in ring.arc(3)] == ["000000"] * len(white)
    ring.render(1300)
    assert [leds(ring)[k] for k in ring.arc(3)] == white   # the flash is over
    ring.flash(4, True, 2000)
    ring.render(2010)
    assert set(leds(ring)[k] for k in ring.arc(4)) == {white[0]}   # not all white: white
    ring.set_palette({"button": "FFFFF0"})
    ring.flash(3, True, 3000)
    ring.render(3010)
    assert leds(ring)[ring.arc(3)[0]] == white[0]


def test_frames_are_byte_identical_to_drawing_everything_every_frame():
    """The incremental renderer against the one that drew every LED every frame: random
    rings (LEDs, seats, offset, direction, brightness, budget, palette), random statuses
    and roles changing between frames, modes, flashes, brightness changes and times (the ticks wrap
    included); every frame and its current estimate must be the same."""
    import ring_reference

    rng = Lcg(4711)
    frames = 0
    palettes = (None, {"bb": "FF0000", "first": "FFFFFF"}, {"wait_post": "0000FF", "ok": "123456"})
    for case in range(120):
        leds_ = (12, 16, 24, 35, 60)[rng.below(5)]
        seats = 2 + rng.below(min(11, leds_ - 1))
        kw = {"offset": rng.below(70) - 5, "reverse": rng.below(2) == 1,
              "brightness": (255, 128, 40, 0)[rng.below(4)],
              "budget_ma": (400, 150, 100000)[rng.below(3)] if leds_ < 100 else 400,
              "palette": palettes[rng.below(3)]}
        if kw["budget_ma"] <= leds_:
            kw["budget_ma"] = 400
        new = Ring(leds_, seats, **kw)
        old = ring_reference.Ring(leds_, seats, **kw)
        now = TICKS_MAX - 3000 + rng.below(6000)
        for f in range(25):
            if rng.below(3) == 0:
                for _ in range(1 + rng.below(3)):
                    seat = 1 + rng.below(seats)
                    status, roles = EVERY_LOOK[rng.below(len(EVERY_LOOK))]
                    put(new, seat, status, roles)
                    put(old, seat, status, roles)
                if rng.below(4) == 0:  # a role nobody has (no hand, no small blind)
                    role = ROLES[rng.below(len(ROLES))]
                    setattr(new, role, 0)
                    setattr(old, role, 0)
            r = rng.below(40)
            if r == 0:
                mode = (R.NORMAL, R.DRAW, R.ERROR)[rng.below(3)]
                new.mode = mode
                old.mode = mode
            elif r == 1:
                level = rng.below(256)
                new.brightness = level
                old.brightness = level
            elif r == 2:
                pal = palettes[rng.below(3)]
                new.set_palette(pal)
                old.set_palette(pal)
            elif r < 6:
                seat = rng.below(seats + 1)
                ok = rng.below(2) == 0
                new.flash(seat, ok, now)
                old.flash(seat, ok, now)
            now = (now + 1 + rng.below(300)) & TICKS_MAX
            new.render(now)
            old.render(now)
            frames += 1
            assert new.buf == old.buf, (case, f, leds(new), [_hex(old.buf, i)
                                                             for i in range(leds_)])
            assert new.ma == old.ma, (case, f, new.ma, old.ma)
            assert new.flashing == old.flashing
    assert frames == 120 * 25


def test_every_status_and_role_on_every_seat_matches_drawing_everything():
    """Each seat in turn shows each of the 224 things it can (a status, a set of roles; the
    other roles on the next seat), the other seats in statuses that vary."""
    import ring_reference

    for leds_, seats in ((12, 12), (24, 9), (60, 12), (16, 5)):
        new = open_ring(leds_, seats)
        old = ring_reference.Ring(leds_, seats, brightness=255, budget_ma=100000)
        for seat in range(1, seats + 1):
            for i in range(len(EVERY_LOOK)):
                for other in range(1, seats + 1):
                    status = STATUSES[(i + 7 * other) % len(STATUSES)]
                    new.status[other] = status
                    old.status[other] = status
                status, roles = EVERY_LOOK[i]
                for r in (new, old):
                    r.status[seat] = status
                    put_roles_apart(r, seat, roles)
                for t in (0, 500, 1000):
                    new.render(t)
                    old.render(t)
                    assert new.buf == old.buf, (leds_, seats, seat, status, roles, t)


def test_viper_and_plain_loops_agree():
    """The frame's two long loops (scaling to the budget, painting a run of LEDs) run as
    viper code on MicroPython and as plain Python on CPython; on MicroPython both are run
    here on the same random input and must agree byte for byte."""
    import sys
    from array import array

    from dealerbutton.ring import canvas, plainloops
    fastloops = viper_loops()
    rng = Lcg(77)
    for case in range(200):
        n = 3 * (1 + rng.below(60))
        data = bytearray([rng.below(256) for _ in range(n)])
        scale = rng.below(256)
        plain = bytearray(data)
        total = plainloops.scale(plain, n, scale)
        assert total == sum(plain)
        for i in range(n):
            assert plain[i] == data[i] * scale >> 8
        leds_ = n // 3
        phys = array("H", [(k * 7 + case) % leds_ for k in range(leds_)])
        a = rng.below(leds_)
        b = a + rng.below(leds_ - a + 1)
        rgb = bytearray([rng.below(256), rng.below(256), rng.below(256)])
        painted = bytearray(data)
        delta = plainloops.paint(painted, phys, a, b, rgb)
        assert sum(painted) - sum(data) == delta
        pal = bytearray([rng.below(256) for _ in range(3 * 12)])
        role = rng.below(12)
        level = rng.below(256)
        brightness = rng.below(256)
        colour = bytearray(3)
        plainloops.colour(colour, pal, role, level, brightness)
        for i in range(3):
            assert colour[i] == pal[3 * role + i] * level // 255 * brightness // 255
        if fastloops is not None:
            fast = bytearray(3)
            fastloops.colour(fast, pal, role, level, brightness)
            assert fast == colour, case
            fast = bytearray(data)
            assert fastloops.scale(fast, n, scale) == total and fast == plain, case
            fast = bytearray(data)
            assert fastloops.paint(fast, phys, a, b, rgb) == delta, case
            assert fast == painted, case
    if sys.implementation.name == "micropython":
        assert canvas.scale is fastloops.scale and canvas.paint_run is fastloops.paint
        assert canvas.colour_of is fastloops.colour


def viper_loops():
    """fastloops, or None where it cannot load (CPython)."""
    try:
        from dealerbutton.ring import fastloops
        return fastloops
    except ImportError:
        return None


if __name__ == "__main__":
    two_runtimes.run_all(globals())
