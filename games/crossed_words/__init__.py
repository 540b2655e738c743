"""Crossed Words Solitaire, the MSO programming contest of December 2000
(../shared/rules/crossed-words-solitaire.txt): an output-only game.

A program reads three piles of 66 letters (``input10.txt``, ``input13.txt``,
``input1310.txt``), a dictionary of 26 files per line-end convention (``dict10/``,
``dict13/``, ``dict1310/``) and its time limit (``seconds.txt``, ``seconds10.txt``), plays
one solitaire game on a 17 x 17 board of bonus squares, and writes ``output.txt``: the total,
the final board and every move. Its score is the total, once every line has been replayed.

Modules, pure Python with no Django: ``board`` (the bonus squares), ``letters`` (values and
tile counts), ``dictionary`` (the word list and its files), ``inputs`` (the pool and the input
files), ``verify`` (the judge of ``output.txt``, and ``write_output`` for players).
"""
