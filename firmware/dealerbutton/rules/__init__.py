"""The rules core: a table's events and what the table shows, hand after hand, as RULES.md
beside it rules; pure and integer-only, the same files on the board and on the host.

    from dealerbutton.rules import Table, RuleError

Table (table.py) takes the events; the modules beside it keep one concern each: the state
(state.py), reading it (view.py), the next hand (nexthand.py), what a deal charges
(charges.py), the deal done (dealing.py), seat changes (seatchange.py), a dealt hand
(hand.py), the undo history (undo.py), the saved form (savedform.py) and the words every
module shares (words.py). Nothing here imports the ring, the buttons, the board or the
store."""

from dealerbutton.rules.state import RuleError  # noqa: F401  (the names its users take)
from dealerbutton.rules.table import Table  # noqa: F401
