"""Host tools for dealerbutton: emulator, deploy, monitor and simulate."""
