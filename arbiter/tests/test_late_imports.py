"""The late imports' check (arbiter/late_imports.py, run by ``make lint``)."""

from pathlib import Path

from arbiter import late_imports

SOURCE = """
import json


def hides_a_cycle():
    from judging.record import standings

    return standings


def wires_a_registry():
    # late: the app's registry is full only once every app has loaded
    from judging.play import race

    return race


def third_party():
    import numpy

    return numpy
"""


def test_a_late_import_of_the_projects_own_module_must_say_why():
    assert late_imports.late_imports(Path("x.py"), SOURCE) == [(6, "judging.record")]


def test_a_module_that_hides_a_cycle_fails_the_check(tmp_path):
    (tmp_path / "judging").mkdir()
    (tmp_path / "judging" / "versus.py").write_text(SOURCE)
    (tmp_path / "judging" / "tests").mkdir()
    (tmp_path / "judging" / "tests" / "test_x.py").write_text(SOURCE)
    assert late_imports.unexplained(tmp_path) == [
        "judging/versus.py:6: judging.record imported inside a function without '# late:' and why"
    ]


def test_the_judging_layer_hides_no_cycle_behind_a_late_import():
    assert late_imports.unexplained() == []
