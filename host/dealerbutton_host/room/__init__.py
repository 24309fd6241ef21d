"""The card room on an MQTT broker: `dealerbutton bridge` (bridge.py) puts a table's device
on it, `dealerbutton room` (view.py) shows every table, in the terminal or as a web page
(server.py, its files in page/), from the room's model (model.py); mqttconn.py reaches the
broker, cli.py gives both subcommands' options and runs (two rows of the command's table,
COMMANDS in dealerbutton_host/cli.py), bench.py loads a room with simulated tables."""
