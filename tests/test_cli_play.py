"""The command line in a real terminal: ``play`` (a round against a bot, bad input, Ctrl-C),
and Ctrl-C in ``simulate --workers``."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pexpect

from child_processes import as_a_terminal_would, posix_only

pytestmark = posix_only


def _play(*args: str) -> pexpect.spawn:
    """Start ``mexican-train play`` with *args* in a pseudo-terminal."""
    return pexpect.spawn(
        sys.executable,
        ["-m", "mexican_train", "play", *args],
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 200),
        preexec_fn=as_a_terminal_would,
    )


def _words(text: str) -> str:
    """Return a pattern for the words of *text*, a line break or spaces between each two:
    play wraps its prose to 79 columns."""
    return r"\s+".join(re.escape(word) for word in text.split())


def _signals(pid: int) -> str:
    """The signal and thread lines of /proc/PID/status, to say why a Ctrl-C went unheard."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError as error:
        return str(error)
    return " ".join(
        line for line in status.splitlines() if line.startswith(("Sig", "Shd", "Threads"))
    )


def _ctrl_c(child: pexpect.spawn, then: str | None = None) -> None:
    """Press Ctrl-C at a prompt; expect *then* (if given) and the end of the program."""
    child.sendintr()
    try:
        if then is not None:
            child.expect(then)
        child.expect(pexpect.EOF)
    except pexpect.TIMEOUT:
        raise AssertionError(
            f"Ctrl-C did not end the game ({_signals(child.pid)}); "
            f"last output: {child.before[-300:]!r}"
        ) from None
    child.close()


def test_play_a_round_in_a_terminal_then_leave_with_ctrl_c() -> None:
    child = _play("--rules", "hub", "--players", "2", "--seed", "3", "--bots", "greedy")
    child.expect(r"you are seat 0")
    # HUB: seat 0 moves first in round 1 (S4), with a full boneyard, so Pass is illegal.
    child.expect(r"Your move \[1-\d+, \? for help\]")
    child.sendline("p")
    child.expect(r"Not allowed: a player who has a legal play must make one \(P7/P5a\)\.")
    child.expect(r"Your move \[1-")
    child.sendline("zz")
    child.expect(r"I did not understand 'zz'")
    child.expect(r"Your move \[1-")
    child.sendline("99")
    child.expect(r"There is no move 99: choose 1-\d+\.")
    child.expect(r"Your move \[1-")
    child.sendline("?")
    child.expect(
        _words("d to draw, p to pass, h for a hint (the search bot's move), ? for help")
    )  # no c: hub has no last-tile call
    child.expect(_words("Play one tile on your train, on the Mexican train once it is open to you"))
    child.expect(_words("A marker (shown on a train) opens that train to everyone"))
    child.sendline("h")  # a hint from the search bot, as a numbered move
    child.expect(r"Hint: \d+\) ")
    # Then play the first legal move each turn until the round is over; Enter alone
    # takes the only move.
    turns = only = 0
    while True:
        found = child.expect(
            [r"Your move \[1-\d+", r"Your move \[Enter", r"Review this round\? \[y/N, q to quit\]"]
        )
        if found == 2:
            break
        turns += 1
        only += found
        child.sendline("1" if found == 0 else "")
    assert turns > 0
    assert only > 0
    assert re.search(
        r"Round 1 over:\s.*\s(went\s+out\s+\(E1\)|blocked\s+\(E2\))", child.before, re.S
    )
    # On a terminal, play offers a review of the round: the seat's biggest mistakes.
    child.sendline("y")
    child.expect(r"\d+ decisions? of yours reviewed, 40 sampled deals each\.")
    child.expect(r"Press Enter to deal round 2")
    _ctrl_c(child, then=r"Game abandoned")
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")


def test_play_offers_stop_without_marker_during_a_first_turn_chain() -> None:
    """P4: after the first tile of a first-turn train, Pass only stops the chain and places
    no marker, and the prompt must say so (not promise a marker)."""
    child = _play("--rules", "standard", "--players", "3", "--seed", "5", "--bots", "planner")
    # Seed 5: seat 0 starts its train with 9-4 and may then go on or stop.
    child.expect(r"2\) play 9-4 on your train")
    child.expect(r"Your move \[1-2")
    child.sendline("2")
    child.expect(r"\d\) stop here \(your first turn ends; no marker, P4\)")
    child.expect(r"Your move \[1-")
    _ctrl_c(child)
    assert "a marker goes on your train" not in (child.before or "")


def test_play_says_which_tile_you_drew_and_where_the_bot_played() -> None:
    """P5: the drawn tile is named to its drawer; a bot's move is told in words."""
    child = _play("--rules", "hub", "--players", "2", "--seed", "3", "--bots", "greedy")
    child.expect(_words("It was set aside before the deal, and you play first (S4)"))
    drew = bot_played = False
    for _ in range(60):
        found = child.expect(
            [r"Your move \[1-\d+", r"Your move \[Enter", r"You draw (\d+-\d+) from the boneyard",
             r"Seat 1 \(greedy\) plays \d+-\d+ on"]
        )  # fmt: skip
        if found == 2:
            drew = True
        elif found == 3:
            bot_played = True
        elif found == 1:
            child.sendline("")
        else:
            child.sendline("d" if "draw a tile" in child.before else "1")
        if drew and bot_played:
            break
    assert drew
    assert bot_played
    child.expect([r"Your move \[", r"Press Enter to deal"])  # waiting for the player
    _ctrl_c(child, then=r"Game abandoned")


def _to_the_review(child: pexpect.spawn) -> None:
    """Play the first legal move each turn until the round's end asks for a review."""
    while True:
        found = child.expect(
            [r"Your move \[1-\d+", r"Your move \[Enter", r"Review this round\? \[y/N, q to quit\]"]
        )
        if found == 2:
            return
        child.sendline("1" if found == 0 else "")


def test_the_review_question_says_what_it_takes_and_q_leaves() -> None:
    """The review's question takes y, n or Enter, and q as every prompt does; another
    answer is told what would do, not refused in click's "Error: invalid input"."""
    child = _play("--rules", "hub", "--players", "2", "--seed", "3", "--bots", "greedy")
    _to_the_review(child)
    child.sendline("x")
    child.expect(
        _words(
            "I did not understand 'x': y reviews your moves of the round, n or Enter goes on, q quits."
        )
    )
    child.expect(r"Review this round\? \[y/N, q to quit\]")
    child.sendline("q")
    assert _quit(child) == 0
    assert "invalid input" not in (child.before or "")


def _quit(child: pexpect.spawn) -> int:
    """Wait for the end of the game; return its exit status."""
    child.expect(r"Game abandoned")
    child.expect(pexpect.EOF)
    child.close()
    return int(child.exitstatus)


def test_q_and_ctrl_d_leave_with_status_0_ctrl_c_with_130() -> None:
    """A chosen quit (q, or Ctrl-D: the end of input) is a success; only Ctrl-C is 130."""
    args = ("--rules", "hub", "--players", "2", "--seed", "3", "--bots", "greedy")
    child = _play(*args)
    child.expect(r"Your move \[")
    child.sendline("q")
    assert _quit(child) == 0
    child = _play(*args)
    child.expect(r"Your move \[")
    child.sendeof()
    assert _quit(child) == 0
    child = _play(*args)
    child.expect(r"Your move \[")
    _ctrl_c(child, then=r"Game abandoned")
    assert child.exitstatus == 130


def test_a_first_turn_play_elsewhere_names_p4_and_the_mexican_train() -> None:
    """Rulebook A's first turn builds your own train (P4): a tile sent to the Mexican train
    is refused for that reason, in words, even where it would not fit (P2)."""
    child = _play("--rules", "standard", "--players", "3", "--seed", "5", "--bots", "planner")
    child.expect(r"2\) play (\d+-\d+) on your train")
    tile = child.match.group(1)
    child.expect(r"Your move \[1-")
    child.sendline(f"{tile} m")
    child.expect(
        _words(
            "Not allowed: on the first turn of a round you play only on your own train, "
            "not on the Mexican train (P4)."
        )
    )
    child.expect(r"Your move \[1-")
    child.sendline(f"{tile} 7")
    child.expect(_words("Not allowed: there is no train 7: with 3 players the trains are"))
    _ctrl_c(child)


def test_ctrl_c_still_saves_the_record(tmp_path: Path) -> None:
    """--record writes the moves made so far when Ctrl-C stops the game (130)."""
    saved = tmp_path / "game.json"
    child = _play(
        "--rules", "hub", "--players", "2", "--seed", "3", "--bots", "greedy",
        "--record", str(saved),
    )  # fmt: skip
    child.expect(r"Your move \[1-")
    child.sendline("1")
    child.expect(r"Your move \[")
    _ctrl_c(child, then=r"The game's record is in\s+\S*game\.json")
    assert child.exitstatus == 130
    document = json.loads(saved.read_text(encoding="utf-8"))
    assert document["type"] == "record"
    assert document["moves"]


def test_simulate_with_workers_stops_on_ctrl_c_though_a_bot_never_moves(tmp_path: Path) -> None:
    """Ctrl-C stops ``simulate --workers`` (130) while a bot of the user's own is stuck in
    its choose: the worker processes are stopped, not waited for."""
    (tmp_path / "stuck.py").write_text(
        "from pathlib import Path\n"
        "class Stuck:\n"
        "    def choose(self, view, moves):\n"
        "        Path('playing').touch()\n"
        "        while True:\n"
        "            pass\n"
    )
    child = pexpect.spawn(
        sys.executable,
        ["-m", "mexican_train", "simulate", "--bots", "stuck:Stuck,greedy", "--players", "2",
         "--games", "4", "--workers", "2"],
        cwd=str(tmp_path), encoding="utf-8", timeout=30, preexec_fn=as_a_terminal_would,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not (tmp_path / "playing").exists():  # a worker is in the bot's choose
        assert time.monotonic() < deadline, child.read_nonblocking(10_000, timeout=0)
        time.sleep(0.01)
    _ctrl_c(child, then="interrupted")
    assert child.exitstatus == 130
