"""Tables computed from recorded results (never from replaying games)."""
