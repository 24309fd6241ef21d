"""A fake `network` module (the Pico W's Wi-Fi) for tests of the board code, CPython and
MicroPython alike. A test puts networks in reach with `aps[ssid] = password`; connect()
starts a join that completes after JOIN_POLLS looks at the link (the real chip joins in the
background too), or fails with the status the chip would give. drop() loses the link."""

STA_IF = 0
AP_IF = 1
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_WRONG_PASSWORD = -3
STAT_NO_AP_FOUND = -2
STAT_CONNECT_FAIL = -1
STAT_GOT_IP = 3
JOIN_POLLS = 3

aps = {}      # ssid -> password of the networks in reach
joins = []    # (ssid, password) of every connect() call
wlans = []    # every WLAN made


def clear():
    aps.clear()
    del joins[:]
    del wlans[:]


def drop():
    """The access point went away (or the board out of its reach)."""
    for w in wlans:
        if w._status == STAT_GOT_IP:
            w._status = STAT_IDLE


class WLAN:
    def __init__(self, interface=STA_IF):
        self.interface = interface
        self._active = False
        self._status = STAT_IDLE
        self._polls = 0
        wlans.append(self)

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        return None

    def connect(self, ssid=None, key=None):
        if not self._active:
            raise OSError("Wi-Fi is off")
        joins.append((ssid, key))
        self._status = STAT_CONNECTING
        self._polls = 0
        self._ssid = ssid
        self._key = key

    def _poll(self):
        if self._status == STAT_CONNECTING:
            self._polls += 1
            if self._polls >= JOIN_POLLS:
                if self._ssid not in aps:
                    self._status = STAT_NO_AP_FOUND
                elif aps[self._ssid] != (self._key or ""):
                    self._status = STAT_WRONG_PASSWORD
                else:
                    self._status = STAT_GOT_IP

    def status(self, param=None):
        self._poll()
        return self._status

    def isconnected(self):
        self._poll()
        return self._status == STAT_GOT_IP

    def ifconfig(self):
        return ("10.0.0.7", "255.255.255.0", "10.0.0.1", "10.0.0.1")
