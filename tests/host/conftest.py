"""Fixtures shared by the host tools' tests."""

import threading

import pytest
from dealerbutton_host.room.server import make_server


@pytest.fixture
def served():
    servers = []

    def serve(model, **options):
        """The room's page for model on a free port (options: make_server's): its URL."""
        server = make_server(model, "127.0.0.1:0", **options)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return "http://127.0.0.1:%d" % server.server_address[1]

    yield serve
    for s in servers:
        s.shutdown()
        s.server_close()
