"""A strip for the tests and the emulator (capture.CaptureStrip): keeps the last frame. The
board never loads it."""


class CaptureStrip:
    """A strip that keeps the last frame (RGB bytes) and counts the writes."""

    def __init__(self, n):
        self.n = n
        self.frame = bytearray(3 * n)
        self.writes = 0

    def show(self, rgb_buf):
        frame = self.frame
        for i in range(len(frame)):
            frame[i] = rgb_buf[i]
        self.writes += 1

    def colour(self, i):
        """LED i of the last frame as "RRGGBB"."""
        return "%02X%02X%02X" % (self.frame[3 * i], self.frame[3 * i + 1], self.frame[3 * i + 2])

    def hex(self):
        """The last frame, one "RRGGBB" per LED, space separated (the `leds` reply)."""
        return hex_colours(self.frame)


def hex_colours(rgb_buf):
    """"RRGGBB RRGGBB ..." for a frame of RGB bytes."""
    return " ".join("%02X%02X%02X" % (rgb_buf[i], rgb_buf[i + 1], rgb_buf[i + 2])
                    for i in range(0, len(rgb_buf) - 2, 3))
