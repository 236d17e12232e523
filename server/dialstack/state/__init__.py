"""The dialogue state: slots, flows, the flow stack. Pure: no I/O imports."""
