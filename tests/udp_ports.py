"""A UDP port free on every interface of this machine (so on 127.0.0.1
too), for a test that must name one before a process binds it."""
import socket


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]
