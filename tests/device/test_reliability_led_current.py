"""Reliability campaign 5: LED current. For every seat count 2..12 on rings of 12, 16, 24,
35 and 60 LEDs at full brightness (255), every status/role combination a seat can show --
each status on all seats at once with each set of roles on one of them, and mixed at
random -- in every mode (normal, the draw for the
button, the error pattern, accepted and refused flashes), every frame the App would render
(one each 25 ms) over a whole animation period must stay within the current budget by
ring.estimate_ma. Then the real App, in random games, for every frame it shows."""
from dealerbutton import ring as R
from fake_flash import FakeFlash
from reliability_campaign import Device, Rand, do, make_config, random_event

SIZES = {
    "quick": {"budgets": (400,), "mixes": 6, "games": 6, "events": 40},
    "large": {"budgets": (50, 150, 400, 1000, 2500, 5000), "mixes": 40, "games": 40,
              "events": 150},
}
RINGS = (12, 16, 24, 35, 60)
STATUSES = (R.EMPTY, R.ACTIVE, R.AWAY, R.WAIT_BB, R.WAIT_POST)
ROLES = ("button", "sb", "bb", "first_to_act")   # the ring's attributes: a seat each
PERIOD_MS = 2000          # the longest animation (first to act breathes, the draw's chase)
FRAME_MS = 25             # the App renders at 40 frames a second


def every_look():
    """The 80 things a seat can show: 5 statuses x the 16 sets of roles (their names)."""
    looks = []
    for status in STATUSES:
        for bits in range(16):
            looks.append((status, [ROLES[i] for i in range(4) if bits >> i & 1]))
    return looks


LOOKS = every_look()


def marks(ring):
    return bytes(ring.status), ring.button, ring.sb, ring.bb, ring.first_to_act


class Top:
    def __init__(self):
        self.frames = 0
        self.top = {}            # budget -> the highest estimate seen
        self.unlimited = 0       # the highest frame current without a limit

    def see(self, ring, budget):
        ma = R.estimate_ma(ring.buf)
        assert ma == ring.ma, (ma, ring.ma)
        assert ma <= budget, (ma, budget, ring.leds, ring.seats, marks(ring))
        self.frames += 1
        if ma > self.top.get(budget, 0):
            self.top[budget] = ma


def sweep(ring, budget, top, start, flash=None):
    """Every frame of one animation period from `start`, with a press flash at its start."""
    if flash is not None:
        ring.flash(flash[0], flash[1], start)
    for k in range(PERIOD_MS // FRAME_MS + 1):
        ring.render(start + k * FRAME_MS)
        top.see(ring, budget)


def test_every_mark_on_every_ring_stays_within_the_budget(campaign):
    size = SIZES[campaign]
    rand = Rand(55)
    top = Top()
    configs = 0
    for budget in size["budgets"]:
        for leds in RINGS:
            if budget <= leds:
                continue
            for seats in range(2, 13):
                ring = R.Ring(leds, seats, brightness=255, budget_ma=budget)
                configs += 1
                # Each status on every seat at once, each set of roles on one seat (the
                # other roles on the next one), in every mode, with a flash.
                for i in range(len(LOOKS)):
                    status, roles = LOOKS[i]
                    for s in range(1, seats + 1):
                        ring.status[s] = status
                    seat = 1 + i % seats
                    for role in ROLES:
                        setattr(ring, role, seat if role in roles else seat % seats + 1)
                    ring.mode = (R.NORMAL, R.NORMAL, R.DRAW)[i % 3]
                    flash = (rand.between(0, seats), rand.chance(50))
                    sweep(ring, budget, top, rand.bits(20), flash)
                # Random mixes: a status a seat, each role on a seat or nobody's (0).
                for _ in range(size["mixes"]):
                    for s in range(1, seats + 1):
                        ring.status[s] = rand.pick(STATUSES)
                    for role in ROLES:
                        setattr(ring, role, rand.between(0, seats))
                    ring.mode = rand.pick((R.NORMAL, R.DRAW))
                    sweep(ring, budget, top, rand.bits(20),
                          (rand.between(0, seats), rand.chance(50)))
                ring.mode = R.ERROR
                sweep(ring, budget, top, 0, (0, True))
    # What the brightest frame would draw without the limit, for the record.
    for leds in RINGS:
        ring = R.Ring(leds, 12, brightness=255, budget_ma=10 ** 6)
        ring.flash(0, True, 0)   # full white over the whole ring, whatever the seats show
        ring.render(0)
        top.unlimited = max(top.unlimited, R.estimate_ma(ring.buf))
    print("\nLED current: %d ring/seat/budget configurations, %d things a seat can show, "
          "%d frames (every %d ms over %d ms) at brightness 255; highest estimate %s; "
          "unlimited, the brightest frame of a 60-LED ring would draw %d mA"
          % (configs, len(LOOKS), top.frames, FRAME_MS, PERIOD_MS,
             ", ".join("%d mA for a %d mA budget" % (top.top[b], b) for b in sorted(top.top)),
             top.unlimited))
    assert len(LOOKS) == 80


def test_the_app_frames_stay_within_the_budget_in_random_games(campaign):
    size = SIZES[campaign]
    rand = Rand(56)
    frames = 0
    highest = {}
    for n in range(size["games"]):
        leds = RINGS[n % len(RINGS)]
        seats = rand.between(2, 12)
        budget = rand.pick(size["budgets"])
        if budget <= leds:
            budget = 400
        cfg = make_config(seats=seats, leds=leds, brightness=255, budget_ma=budget,
                          rules=rand.pick(("dead", "moving", "simple")))
        dev = Device(cfg, FakeFlash(), now=rand.bits(30), seed=n)
        for _ in range(size["events"]):
            do(dev, random_event(rand, dev.table))
            for _ in range(PERIOD_MS // FRAME_MS // 4):
                dev.tick(rand.between(5, 30))
                ma = R.estimate_ma(dev.strip.frame)
                assert ma <= budget, (ma, budget, cfg)
                frames += 1
                highest[budget] = max(highest.get(budget, 0), ma)
    print("\nLED current through the App: %d games on rings of %s LEDs, %d frames shown; "
          "highest %s"
          % (size["games"], "/".join(str(x) for x in RINGS), frames,
             ", ".join("%d mA for a %d mA budget" % (highest[b], b) for b in sorted(highest))))
