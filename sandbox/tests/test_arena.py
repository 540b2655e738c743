"""A race's jails: arena slots beside every slot of the installation, and a login name of its own."""

from __future__ import annotations

import pytest

from sandbox.conf import SandboxSettings
from sandbox.errors import SandboxError
from sandbox.jail import Jail, reserve_arena_slots, sweep
from sandbox.limits import Limits
from sandbox.result import Verdict
from sandbox.slots import holding, reserve

LIMITS = Limits(cpu_s=5, memory_mb=256)


def test_an_arena_holds_every_slot_and_one_more_per_entrant(sandbox_settings: SandboxSettings) -> None:
    with reserve_arena_slots(6, sandbox_settings) as arena:
        assert len(arena) == 6 + sandbox_settings.slots
        entrants = arena.slots[:6]
        assert [s.number for s in entrants] == list(range(sandbox_settings.slots, sandbox_settings.slots + 6))
        assert len({s.uid for s in arena}) == len(arena)  # a uid each
        for n in range(sandbox_settings.slots):
            with holding(sandbox_settings, n) as slot:
                assert slot is None  # nothing else of the installation runs beside the race
        with pytest.raises(SandboxError, match="no 1 free sandbox slot"):
            reserve(sandbox_settings, 1, timeout=0.2)
        # jails in two arena slots at once, each one's own; a sweep leaves them alone
        with (
            Jail(LIMITS, settings=sandbox_settings, slot=entrants[0]) as one,
            Jail(LIMITS, settings=sandbox_settings, slot=entrants[1]) as two,
        ):
            assert sweep(sandbox_settings) == 0
            assert one.run(["true"]).verdict is Verdict.OK and two.run(["true"]).verdict is Verdict.OK
    with reserve(sandbox_settings, sandbox_settings.slots, timeout=5):
        pass  # all given back


def test_whoami_says_the_jails_login_name(sandbox_settings: SandboxSettings) -> None:
    with Jail(LIMITS, user="speedy-7", settings=sandbox_settings) as jail:
        result = jail.run(["sh", "-c", "whoami; id -un; perl -e 'print scalar(getpwuid($<)), qq(\\n)'"])
    assert result.verdict is Verdict.OK, result
    assert result.stdout_text.splitlines() == ["speedy-7"] * 3


@pytest.mark.parametrize("name", ["Root", "a b", "", "x" * 33, "../etc", "1abc"])
def test_a_login_name_that_could_not_be_one_is_refused(sandbox_settings: SandboxSettings, name: str) -> None:
    with pytest.raises(ValueError, match="cannot be a login name"):
        Jail(LIMITS, user=name, settings=sandbox_settings)


def test_a_client_finds_the_tcp_protocol_by_name(sandbox_settings: SandboxSettings) -> None:
    """The pace car (Perl) calls getprotobyname('tcp'): without /etc/protocols it printed
    "Use of uninitialized value in socket" into every race's stderr."""
    script = "use warnings; my $p = getprotobyname('tcp'); print defined $p ? $p : 'undef', qq(\\n)"
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        result = jail.run(["perl", "-e", script])
    assert result.verdict is Verdict.OK, result
    assert result.stdout_text.strip() == "6" and result.stderr_text == ""
