"""The window's command line: its options are listed in --help, anything unknown is refused
with one line, --lesson is checked against the real number of steps, Qt's options pass."""
import pytest

import main
from engine.cli_args import UsageError
from gui.app import parse_window_args
from gui.lessons.steps import STEPS


def test_help_lists_the_window_options(capsys):
    with pytest.raises(SystemExit) as info:
        main.main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--lang", "--session", "--lesson", "--presentation"):
        assert option in out
    assert f"1–{len(STEPS)}" in out


@pytest.mark.parametrize("argv", [["--bogus"], ["--lang", "ja", "stray"], ["-x"], ["--les", "2"],
                                  ["-platform"]])
def test_unknown_arguments_are_refused(argv):
    with pytest.raises(UsageError, match="unrecognized argument"):
        parse_window_args(argv)


def test_lesson_beyond_the_last_step_is_refused():
    with pytest.raises(UsageError, match=f"from 1 to {len(STEPS)}"):
        parse_window_args(["--lesson", str(len(STEPS) + 1)])
    args, _ = parse_window_args(["--lesson", str(len(STEPS))])
    assert args.lesson == len(STEPS)


def test_qt_options_are_handed_on():
    args, qt = parse_window_args(["--lang", "en", "-style", "fusion", "-reverse",
                                  "-platform=offscreen"])
    assert args.lang == "en" and qt == ["-style", "fusion", "-reverse", "-platform=offscreen"]


def test_the_gui_entry_prints_one_line_for_a_bad_option(capsys):
    assert main.main(["--bogus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--bogus" in err
