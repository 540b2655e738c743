"""The size of a built program, as an output-only contest's tie-break counts it."""

import os
import shutil

from sandbox.programs import Program, program_size


def test_a_native_build_counts_its_files(tmp_path):
    (tmp_path / "prog").write_bytes(b"x" * 1000)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "table").write_bytes(b"y" * 24)
    assert program_size(Program("c", "gcc", tmp_path, ("./prog",))) == 1024


def test_a_script_counts_its_interpreter_as_the_page_counted_java_exe(tmp_path):
    (tmp_path / "main.py").write_bytes(b"print(1)\n")
    python = os.path.realpath(shutil.which("python3", path="/usr/bin:/bin"))
    assert program_size(Program("python", "python3", tmp_path, ("python3", "main.py"))) == 9 + os.path.getsize(python)
