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


#: Qt's own command-line options (QGuiApplication and QApplication), handed on to Qt.
QT_VALUE_OPTIONS = frozenset({"-platform", "-platformpluginpath", "-platformtheme", "-plugin",
                              "-qwindowgeometry", "-qwindowicon", "-qwindowtitle", "-style",
                              "-stylesheet", "-session", "-display", "-geometry", "-name",
                              "-title", "-fontengine"})
QT_FLAG_OPTIONS = frozenset({"-reverse", "-widgetcount", "-nograb", "-dograb", "-sync"})


def add_window_args(parser: argparse.ArgumentParser, lesson_steps: int) -> None:
    """The window's options (no command): --lang, --session, --lesson, --presentation."""
    group = parser.add_argument_group("window options (without a command)")
    group.add_argument("--lang", choices=("ja", "en"), help="the language of the window")
    group.add_argument("--session", metavar="FILE", help="open a saved session (.json)")
    group.add_argument("--lesson", metavar="N", type=int_arg(1, lesson_steps),
                       help=f"open the lesson at step N (1–{lesson_steps})")
    group.add_argument("--presentation", action="store_true",
                       help="start in presentation mode (full screen, large text)")


def qt_args(rest: list[str]) -> list[str]:
    """The arguments that parse_known_args left over, if they are all Qt's own options
    (QT_VALUE_OPTIONS with their value, QT_FLAG_OPTIONS); UsageError names the first that is not."""
    out, i = [], 0
    while i < len(rest):
        arg = rest[i]
        name = arg.split("=", 1)[0]
        if name in QT_FLAG_OPTIONS or ("=" in arg and name in QT_VALUE_OPTIONS):
            out.append(arg)
            i += 1
        elif name in QT_VALUE_OPTIONS and i + 1 < len(rest):
            out += rest[i:i + 2]
            i += 2
        else:
            raise UsageError(f"unrecognized argument: {arg} (see attention-lab --help)")
    return out
