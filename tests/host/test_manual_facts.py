"""Facts the manual states in its tables and prose, beside the examples that are run: the
names it lists are the ones the code has."""

import re
from pathlib import Path

from dealerbutton.ring import palette
from dealerbutton.store import config
from dealerbutton_host.room import bridge

ROOT = Path(__file__).resolve().parents[2]
USING = (ROOT / "docs" / "using.md").read_text()
CARD_ROOM = (ROOT / "docs" / "card-room.md").read_text()


def config_row(field):
    return [line for line in USING.splitlines() if line.startswith("| `%s` |" % field)][0]


def test_the_config_table_has_every_field_of_config_json():
    fields = set(re.findall(r"^\| `([a-z_]+)(?:\.[a-z]+)?` \|", USING, re.M))
    assert fields == set(config.FIELDS) | {"network"}


def test_the_palette_row_names_every_role():
    assert re.findall(r"`([a-z_]+)`", config_row("palette").split("|")[2]) == list(palette.ROLES)


def test_the_bridge_refusals_shown_list_the_commands_it_takes():
    shown = re.findall(r"\(allowed: ([a-z ]+)\)", CARD_ROOM)
    assert shown and set(shown) == {" ".join(bridge.TABLE_COMMANDS)}


def test_the_button_page_cites_the_seat_change_rules_of_the_protocol():
    protocol = (ROOT / "firmware" / "dealerbutton" / "PROTOCOL.md").read_text()
    cited = re.search(r"^\| `move A B` \|.*\(RULES\.md (C1-C\d)\)", protocol, re.M).group(1)
    assert "(rules %s)" % cited in USING
