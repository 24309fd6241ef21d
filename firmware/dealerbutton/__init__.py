"""dealerbutton: a dealer-button controller for live poker tables (runs on the board and the host)."""

VERSION = "0.1.0"
