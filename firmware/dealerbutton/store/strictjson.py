"""Strict JSON (RFC 8259) for config.json: the first fault, with its line and column.

This hand-written checker is kept because it gives the user what the runtime's json cannot.
MicroPython's json.loads lets trailing commas, missing colons, leading zeros and more
through (the board must refuse what deploy on the host refuses), and where it does refuse,
it says neither what nor where. The checker only checks; json.loads reads the text once it
passes."""

_BLANK = " \t\r\n"
_HEX = "0123456789abcdefABCDEF"
_ESCAPES = '"\\/bfnrt'


class JsonFault(ValueError):
    """Where the text stops being strict JSON."""


def json_error(text):
    """What is wrong with text as strict JSON, "<what> at line L, column C", or None."""
    checker = _Checker(text)
    try:
        checker.value()
        if checker.next_char():
            checker.fault("unexpected %r after the end" % checker.next_char())
    except JsonFault as exc:
        return str(exc)
    return None


class _Checker:
    """A walk through one JSON text; each method reads one part of the grammar at self.i,
    or raises JsonFault."""

    def __init__(self, text):
        self.text = text
        self.i = 0

    def fault(self, what):
        line = self.text.count("\n", 0, self.i) + 1
        column = self.i - (self.text.rfind("\n", 0, self.i) + 1) + 1
        raise JsonFault("%s at line %d, column %d" % (what, line, column))

    def next_char(self):
        """The next character after blanks ("" at the end), not taken."""
        text = self.text
        while self.i < len(text) and text[self.i] in _BLANK:
            self.i += 1
        return text[self.i] if self.i < len(text) else ""

    def value(self):
        c = self.next_char()
        if c == "{":
            self.container("}", True)
        elif c == "[":
            self.container("]", False)
        elif c == '"':
            self.string()
        elif c == "-" or "0" <= c <= "9":
            self.number()
        elif c == "":
            self.fault("unexpected end of the text")
        else:
            for word in ("true", "false", "null"):
                if self.text.startswith(word, self.i):
                    self.i += len(word)
                    return
            self.fault("unexpected %r" % c)

    def container(self, close, is_object):
        """An object (is_object: "key": value pairs) or an array, from its opening bracket."""
        self.i += 1
        if self.next_char() == close:
            self.i += 1
            return
        while True:
            if is_object:
                if self.next_char() != '"':
                    self.fault("expected a field name in quotes")
                self.string()
                if self.next_char() != ":":
                    self.fault("expected ':'")
                self.i += 1
            self.value()
            c = self.next_char()
            self.i += 1
            if c == close:
                return
            if c != ",":
                self.i -= 1
                self.fault("expected ',' or %r" % close)

    def string(self):
        text = self.text
        self.i += 1
        while self.i < len(text):
            c = text[self.i]
            if c == '"':
                self.i += 1
                return
            if ord(c) < 32:
                self.fault("control character in a string")
            if c == "\\":
                self.i += 1
                e = text[self.i:self.i + 1]
                if e == "u":
                    h = text[self.i + 1:self.i + 5]
                    if len(h) < 4 or any(x not in _HEX for x in h):
                        self.fault("bad \\u escape")
                    self.i += 4
                elif not e or e not in _ESCAPES:
                    self.fault("bad escape")
            self.i += 1
        self.fault("unterminated string")

    def number(self):
        text = self.text
        start = self.i
        if text[self.i] == "-":
            self.i += 1
        first = self.i
        self.digits()
        if self.i == first or (text[first] == "0" and self.i - first > 1):
            self.i = start
            self.fault("bad number")
        if text.startswith(".", self.i):
            self.i += 1
            if not self.digits():
                self.i = start
                self.fault("bad number")
        if text[self.i:self.i + 1] in ("e", "E"):
            self.i += 1
            if text[self.i:self.i + 1] in ("+", "-"):
                self.i += 1
            if not self.digits():
                self.i = start
                self.fault("bad number")

    def digits(self):
        """Take a run of decimal digits; whether there was one."""
        text = self.text
        start = self.i
        while self.i < len(text) and "0" <= text[self.i] <= "9":
            self.i += 1
        return self.i > start
