"""Command-line argument checks shared by the headless commands and the window's options.

Bad input raises UsageError, whose message is printed as one line (exit code 2).
"""
from __future__ import annotations

import argparse
import math

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad command-line input; the message is printed as one line."""


class ArgParser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, no usage dump
        raise UsageError(message)


def int_arg(low: int, high: int):
    """An argparse type: a whole number from low to high."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        return value
    return parse


def float_arg():
    """An argparse type: a finite number."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
        return value
    return parse
