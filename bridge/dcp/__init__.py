"""DCP 1.0, the Modelica Association's Distributed Co-Simulation Protocol,
over UDP/IPv4: its PDUs (``pdu.py``), slave descriptions
(``description.py``), one of our blocks as a slave (``slave.py`` and, on
its sockets, ``slave_server.py``: ``crane-cosim dcp-slave``), and a block
that drives a DCP slave as its master (``master.py``, ``dcp_bridge.py``:
``crane-cosim build-dcp-bridge``), so that a device that speaks DCP takes a
block's place in a system.  Use: docs/in_the_loop.md."""
