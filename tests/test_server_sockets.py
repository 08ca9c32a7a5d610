"""ui.server.sockets: the process's listening TCP sockets get TCP_NODELAY, which the connections
they accept inherit (Linux), and nothing else is touched."""

import socket

from ui.server.sockets import no_delay_on_listening_sockets


def nodelay(sock):
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_listening_sockets_get_no_delay_and_accepted_connections_inherit_it():
    listener = socket.socket(socket.AF_INET)  # as Streamlit binds it: no protocol named
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    client = socket.create_connection(listener.getsockname())
    before, _ = listener.accept()
    try:
        assert nodelay(listener) == 0 and nodelay(before) == 0
        assert no_delay_on_listening_sockets() >= 1
        assert nodelay(listener) == 1
        assert nodelay(before) == 0 and nodelay(client) == 0  # connected sockets are left alone
        late_client = socket.create_connection(listener.getsockname())
        after, _ = listener.accept()
        with late_client, after:
            assert nodelay(after) == 1
    finally:
        for sock in (listener, client, before):
            sock.close()


def test_without_a_descriptor_directory_nothing_is_done(tmp_path):
    assert no_delay_on_listening_sockets(str(tmp_path / "missing")) == 0
    (tmp_path / "fd").mkdir()
    (tmp_path / "fd" / "not-a-number").touch()
    assert no_delay_on_listening_sockets(str(tmp_path / "fd")) == 0
