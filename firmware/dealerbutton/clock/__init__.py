"""The tournament clock: its schedule of levels and breaks run against the time
(schedule.py), and the clock at the table (table.py: the level the table plays, the clock's
events and saves, the `clock` command, what the ring shows). A cash game never loads it."""
