"""The firmware's rules and ring off the board: `dealerbutton simulate`, the independent
referee it checks the rules core against, a table in this process (SimTable) and the ring
renderer's reference that the ring tests compare frames with."""
