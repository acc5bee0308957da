"""The one exception of the command line: bad input, told in one line."""

__all__ = ["InputError"]


class InputError(Exception):
    """Bad input from the command line: the message is the whole story (one line)."""

