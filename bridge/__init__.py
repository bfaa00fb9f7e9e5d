"""The UDP bridge: a block whose outputs come from another process
(``udp_bridge.py``), the packets it exchanges (``packet.py``) through its
socket (``link.py``) with the ledger of its requests (``ledger.py``), and
``crane-cosim serve``'s peer, one of our blocks at the other end
(``serve.py``).  Every FMU carries this folder beside the blocks; a bridge
FMU imports it.  Protocol and use: docs/in_the_loop.md."""
