"""The simplest possible sudoku solution counter: cells in order, digits in order, check the
row, column and box each time. Slow and obviously right; the tests hold the fast counter
to it."""

from __future__ import annotations


def count(grid: list[int], limit: int = 2, budget: int = 2_000_000) -> int | None:
    """min(solutions, limit), or None when it gives up after ``budget`` placements."""
    grid = list(grid)
    empties = [i for i in range(81) if grid[i] == 0]
    for i in range(81):
        if grid[i] and not _fits(grid, i, grid[i]):
            return 0
    steps = 0
    found = 0

    def go(k: int) -> None:
        nonlocal steps, found
        if k == len(empties):
            found += 1
            return
        cell = empties[k]
        for d in range(1, 10):
            if _fits(grid, cell, d):
                steps += 1
                if steps > budget:
                    raise TimeoutError
                grid[cell] = d
                go(k + 1)
                grid[cell] = 0
                if found >= limit:
                    return

    try:
        go(0)
    except TimeoutError:
        return None
    return found


def _fits(grid: list[int], cell: int, d: int) -> bool:
    r, c = divmod(cell, 9)
    for i in range(9):
        if i != c and grid[r * 9 + i] == d:
            return False
        if i != r and grid[i * 9 + c] == d:
            return False
    br, bc = r - r % 3, c - c % 3
    for rr in range(br, br + 3):
        for cc in range(bc, bc + 3):
            if (rr, cc) != (r, c) and grid[rr * 9 + cc] == d:
                return False
    return True
