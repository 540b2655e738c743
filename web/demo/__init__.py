"""Demo data: accounts and the five contests Arbiter was built to host.

The rules texts are our own short summaries; each contest links to the original page,
which stays the specification (see ../shared/rules/ in the development checkout).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DemoUser:
    username: str
    password: str
    role: str
    is_superuser: bool = False
    is_judge: bool = False
    is_organiser: bool = False


DEMO_USERS = [
    DemoUser("admin", "arbiter-admin", "administrator", is_superuser=True),
    # Named judge of each demo contest (contests.roles); the admin is the administrator's alone.
    DemoUser("judge", "arbiter-judge", "judge", is_judge=True),
    # Owns the demo contests; opens and edits contests on /organise/, not in the admin.
    DemoUser("organiser", "arbiter-organiser", "organiser", is_organiser=True),
    DemoUser("alice", "arbiter-alice", "contestant"),
    DemoUser("bob", "arbiter-bob", "contestant"),
]


@dataclass(frozen=True)
class DemoContest:
    slug: str
    title: str
    summary: str
    game: str
    game_params: dict[str, Any]
    clock: dict[str, Any]
    rules: str
    stages: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    entry_form: list[dict[str, Any]] = field(default_factory=list)
    language_table: str = "arbiter"  # sandbox.languages.TABLES
    max_source_bytes: int = 1024 * 1024
    source_counts: str = "bytes"
    max_executable_bytes: int | None = None
    max_submissions_per_week: int | None = None
    max_entries_per_user: int = 1
    # Reference programs entered by the organisers: (entry name, path from the repository root),
    # and text to replace in the source, if any ({"CHANCE = 1.0": "CHANCE = 0.7"}).
    references: list[tuple] = field(default_factory=list)


DEMO_CONTESTS = [
    DemoContest(
        slug="chomp",
        title="Chomp (POTM, summer 1995)",
        summary="Eat cookies, leave the poison one to your opponent.",
        game="chomp",
        game_params={"rows": 7, "cols": 9},
        # Memory: the page names none (SunOS workstations of 1995); the platform's 256 MB.
        clock={"cpu_average_per_move_s": 30, "wall_per_move_s": 60, "memory_mb": 256},
        rules=(
            "Two programs take turns on a grid of cookies with the poison cookie in the top-left corner. "
            "A move picks a cookie and eats it and every cookie below and to the right of it. "
            "Whoever eats the poison cookie loses.\n\n"
            "Each move your program is run afresh as `prog ROWS COLS` (2 to 50 rows and columns), reads the grid "
            "on standard input (X poison, O cookie, * eaten) and writes the grid after its chomp. "
            "A match is two games on the same grid, each side starting once. "
            "Ranking: wins, then cookies eaten in won games, then fewest chomps. "
            "Your program may average at most 30 seconds of CPU per move over a game."
        ),
        stages=[
            ("System test", "system_test", {"games": 2, "rows": 4, "cols": 5, "opponent": "Random (C)"}),
            # POTM published standings every week while the contest ran. Here its games, after
            # each version's first two against each other, go where they separate places 1 and 2.
            ("Weekly standings", "ladder", {"games_per_pairing": 2, "places": "1, 2"}),
            ("Round robin", "round_robin", {"games_per_pairing": 2}),
        ],
        # "All compilation will be done WITHOUT ANY OPTIMIZATION, and the standard math library
        # will be loaded"; "perl, sh, awk, whatever".
        language_table="potm",
        # "25K max source size" ("comments don't count against you"), "Maximum size of
        # executable is 1 Megabyte", "no more than two a week"
        max_source_bytes=25_000,
        source_counts="code",
        max_executable_bytes=1024 * 1024,
        max_submissions_per_week=2,
        references=[
            ("Random (C)", "games/chomp/players/random_player.c"),
            ("Perfect on small boards (Python)", "games/chomp/players/perfect.py"),
            # The same program careless on some moves: a medium one and two equally weak ones, a
            # field whose standings say what they are sure of (issue 27).
            (
                "Medium: 7 moves in 10 perfect (Python)",
                "games/chomp/players/perfect.py",
                {"CHANCE = 1.0": "CHANCE = 0.7"},
            ),
            (
                "Weak A: 1 move in 3 perfect (Python)",
                "games/chomp/players/perfect.py",
                {"CHANCE = 1.0": "CHANCE = 0.35"},
            ),
            (
                "Weak B: 1 move in 3 perfect (Python)",
                "games/chomp/players/perfect.py",
                {"CHANCE = 1.0": "CHANCE = 0.35"},
            ),
        ],
    ),
    DemoContest(
        slug="hearts-and-flowers",
        title="Hearts and Flowers (Oxford, 2003)",
        summary="Slide pieces onto an n×n board; make a line of n.",
        game="hearts_flowers",
        game_params={"n": 5},
        # "30 seconds to decide on each move": CPU; the wall limit only catches a program that waits;
        # "a 500 MHz Pentium-III with 256 MB of memory"
        clock={"cpu_per_move_s": 30, "wall_per_move_s": 30, "memory_mb": 256},
        rules=(
            "Two players slide pieces onto an n×n board from any of its four sides, pushing the pieces in the way "
            "along; a piece pushed off the edge is gone. A full line of n pieces in a row, a column or a main "
            "diagonal wins, whoever's move made it; lines for both players at once are a draw, and so is a game "
            "with no winner after each side has made 2n² moves.\n\n"
            "Your program reads n and the board and prints one move such as W2. The referee swaps the pieces so "
            "that your program always plays Hearts. It has 30 seconds per move and may keep files in its own "
            "support/ folder between moves of a match. Submit an archive with a Makefile or build script and a runme."
        ),
        stages=[
            ("System test", "system_test", {"games": 2, "n": 4, "opponent": "Random (Python)"}),
            ("Practice games", "ladder", {"games_per_pairing": 2, "n": 4}),
            ("Round robin, n = 4", "round_robin", {"games_per_pairing": 2, "n": 4}),
            ("Round robin, n = 5", "round_robin", {"games_per_pairing": 2, "n": 5, "best_of_each_contestant": True}),
        ],
        max_source_bytes=5 * 1024 * 1024,
        # "Contestants may submit more than one program, but only the highest-scoring program
        # from each contestant will be allowed to proceed beyond the first round."
        max_entries_per_user=3,
        references=[
            ("Random (Python)", "games/hearts_flowers/players/random_player.py"),
            ("Alpha-beta (C)", "games/hearts_flowers/players/minimax.c"),
        ],
    ),
    DemoContest(
        slug="codecup-sudoku",
        title="CodeCup 2024: Sudoku",
        summary="Take turns filling a sudoku; be first to claim it has one solution.",
        game="sudoku",
        game_params={},
        # Memory: the technical rules name no figure; strong entries allocate tables of 512 MiB
        # to 1 GiB, so each program has 1.5 GiB (docs/games.md).
        clock={"time_limit": 30, "measure": "wall", "memory_mb": 1536},
        rules=(
            "Two programs fill an empty 9×9 sudoku in turns, one digit per move, and each move must strictly reduce "
            "the number of solutions. A player who believes a single solution remains claims it with `!` (or with a "
            "move followed by `!`). A correct claim wins 2-1; a false claim, an illegal move or a crash loses 0-2; a "
            "move that leaves no solution, or that does not reduce their number, and running out of time lose 1-2.\n\n"
            "One process per game, line protocol: the first player reads `Start`, then each reads the opponent's "
            "move and answers with its own; `Quit` ends the game. Each program has 30 seconds for the whole game."
        ),
        stages=[
            ("System test", "system_test", {"games": 2, "opponent": "Random (Python)"}),
            # CodeCup's test competitions: every version plays every other while the contest is open.
            ("Test competition", "ladder", {"games_per_pairing": 2}),
            # The final of CodeCup 2024: 24 Swiss rounds, then the best 36 in a double round robin.
            ("Swiss rounds", "swiss", {"rounds": 24, "games_per_pairing": 2}),
            ("Final", "round_robin", {"games_per_pairing": 2, "top": 36}),
        ],
        references=[
            ("Random (Python)", "games/sudoku/players/random_player.py"),
            ("Claimer (C++)", "games/sudoku/players/claimer.cpp"),
        ],
        # The technical rules: their compilers and flags; "The maximum allowed size of the
        # source file is 1 474 560 bytes".
        language_table="codecup",
        max_source_bytes=1_474_560,
    ),
    DemoContest(
        slug="solitaire-500",
        title="The Solitaire 500: Wheels (TPJ)",
        summary="A race of solitaire clients against one server: first to finish the last deck wins.",
        game="wheels",
        game_params={"decks": 50},
        # The stage's limit in real time; the race's delays are a stage parameter.
        clock={"seconds": 900, "memory_mb": 256},
        rules=(
            "Wheels is a patience game of four piles: lay four cards at a time, cover a card with one of the same "
            "rank from a pile to its right, discard four of a kind, and when the deck in hand is used up pick the "
            "piles up in an order of your choosing and go round again, until all thirteen sets are discarded.\n\n"
            "Every program is a TCP client of the contest's game server, speaking the Stateful Wheels Protocol of "
            "the original page. It finds the server through `SWP_SERVERNAME` and `SWP_SERVERPORT` and logs in with "
            "`username:password`: the password is in `SWP_PASSWORD`, and the user name is your entry's login name, "
            "which `whoami` says in the jail and `SWP_USERNAME` holds too (your entry's name in lower case, letters, "
            "digits and '-'). All entries run at once on one machine and share its CPU. Test at home with "
            "`python manage.py wheels_server --no-delays` and the pace car below.\n\n"
            "Trial laps: 50 decks, every entry measured; the 24 with the fewest rounds qualify (the best third if "
            "there are more than 72). The race: 500 decks, at most one move-containing instruction a second (and ten "
            "other commands in any second) and a one-second pit stop for each illegal move; the first legal `win` on the last deck wins, the others "
            "are ranked by how far they got. This demo runs short versions of both."
        ),
        stages=[
            ("System test", "system_test", {"decks": 1, "seconds": 120}),
            ("Practice laps", "practice", {"decks": 2, "seconds": 120}),
            ("Trial laps", "qualification", {"decks": 5, "seconds": 300}),
            ("Race", "race", {"decks": 3, "delays": 1, "first_wins": 1, "seconds": 300}),
        ],
        references=[
            ("Pace car (Perl)", "games/wheels/players/pacecar.pl"),
            ("Planner (Python)", "games/wheels/players/planner.py"),
        ],
    ),
    DemoContest(
        slug="crossed-words",
        title="Crossed Words Solitaire (MSO, December 2000)",
        summary="Build the best-scoring crossword from a letter pool within the time limit.",
        game="crossed_words",
        game_params={},
        clock={"seconds": 300},
        rules=(
            "A solitaire word game: draw letters from the left end of one of three piles of 66, discard at a cost, "
            "and place one word a move on the 17x17 board for points, with letter and word bonus squares that count "
            "every time a word covers them. The original page is the rulebook.\n\n"
            "Your program runs once, alone, in a folder holding input10.txt, input13.txt and input1310.txt (the "
            "three piles, one a line, ended by LF, CR or CR/LF), the dictionary as dict10/, dict13/ and dict1310/ "
            "(a.txt to z.txt, one lower-case word a line) and seconds.txt / seconds10.txt (the time limit in "
            "seconds, measured in real time). It must write output.txt there and end before the limit: a program "
            "still running at the limit is disqualified. The final run uses a fresh shuffle of the same 198 "
            "letters; download the practice inputs below to test at home with `arbiter play` or "
            "`python manage.py play crossed_words YOUR_PROGRAM --clock seconds=N`.\n\n"
            "output.txt, exactly (letters in either case, fields separated by spaces or tabs, LF or CR/LF):\n\n"
            "    <total score>                                   line 1\n"
            "    <17 lines of 17 characters: A-Z or '.'>         the final board, row 1 first\n"
            "    # a comment line, anywhere after the board\n"
            "    DRAW <pile 1-3> <LETTERS>                       taken from the left end of that pile\n"
            "    DISCARD <LETTERS> <-points>                     e.g. DISCARD QX -17\n"
            "    PLAY <row 1-17> <col 1-17> <A|D> <WORD> <points>   first letter at (row, col), A across, D down\n"
            "    ALSO <WORD> <points>                            each other word the move formed, after its PLAY\n"
            "    BONUS <50|100>                                  after a PLAY that earns it\n\n"
            "Every line is replayed and every figure recomputed by the verifier; its verdict names the first wrong "
            "line. Entries are ranked by the verified score; the judges verify outputs from the highest claim down, "
            "as the page did. Ties are broken by the MSO formula: programming time / fastest / 5 + execution time / "
            "fastest + program size / smallest (the size of the built program and of the interpreter that runs it)."
        ),
        # The system test: one run on the practice inputs, 10 s; the demo's final run is short too (20 s;
        # the contest's 300 s are for a real final).
        stages=[
            ("System test", "system_test", {"seed": 20001217, "seconds": 10}),
            ("Practice", "practice", {"seed": 20001217, "seconds": 20}),
            ("Final run", "batch", {"seconds": 20}),
        ],
        references=[
            ("Greedy (C++)", "games/crossed_words/players/greedy.cpp"),
            ("Simple (Python)", "games/crossed_words/players/simple.py"),
        ],
        # The page's entry form (MSO, December 2000), field for field; the executable's size is
        # measured by the platform, not asked.
        entry_form=[
            {"name": "full_name", "label": "First and last name", "type": "text", "required": True},
            {
                "name": "country",
                "label": "State or province and country",
                "type": "text",
                "required": True,
                "help": "Two or three words, e.g. Ontario, Canada.",
            },
            {"name": "email", "label": "E-mail address", "type": "email", "required": True},
            {
                "name": "publish",
                "label": "Permission to post my e-mail address on the results page and my source code",
                "type": "checkbox",
                "required": True,
            },
            {"name": "language_version", "label": "Programming language and version", "type": "text", "required": True},
            {
                "name": "system",
                "label": "Your operating system, computer speed and version",
                "type": "text",
                "required": True,
                "help": "e.g. Debian 12, 2.4 GHz",
            },
            {
                "name": "best_score",
                "label": "Your best score, all bonuses included",
                "type": "integer",
                "required": True,
            },
            {
                "name": "escape",
                "label": "Escape valve",
                "type": "text",
                "required": True,
                "help": "The keystroke that stops your program within two seconds, e.g. Ctrl+C. "
                "Without one the entry is not judged (the page's rule).",
            },
            {"name": "comments", "label": "Comments about this contest (optional)", "type": "textarea"},
        ],
    ),
]
