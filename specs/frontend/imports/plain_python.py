"""A module without any PyPTO program is a note, not silence."""


def add(a, b):
    return a + b
