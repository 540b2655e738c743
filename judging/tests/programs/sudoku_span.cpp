// CodeCup 2024 Sudoku, a small C++20 player (std::span, std::ranges): it builds with the
// codecup table's default standard and not as C++17.
//
// Each turn it counts the solutions of the grid (up to two, by backtracking with bitmasks and
// fewest-candidates-first). One solution: the opponent left it, claim "!". Otherwise, once the
// grid has enough digits for a unique solution, it looks for a move that leaves exactly one
// and plays it with "!". Failing that it plays a cell where its two solutions differ, with the
// digit of one of them: some solution is left (that one) and the other is gone, so the move is
// always legal; it prefers such a move that leaves at least two solutions.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <iostream>
#include <random>
#include <ranges>
#include <span>
#include <string>
#include <vector>

namespace {

using Grid = std::array<std::uint8_t, 81>;
std::array<std::array<std::uint8_t, 20>, 81> peers;
std::mt19937 rng(20240131);

void init_peers() {
    for (int c = 0; c < 81; ++c) {
        int n = 0;
        for (int i = 0; i < 81; ++i) {
            bool row = i / 9 == c / 9, col = i % 9 == c % 9;
            bool box = i / 27 == c / 27 && i % 9 / 3 == c % 9 / 3;
            if (i != c && (row || col || box)) peers[c][n++] = std::uint8_t(i);
        }
    }
}

struct Board {
    Grid val{};
    std::array<std::uint16_t, 81> cand{};

    bool assign(int c, int d) {
        const auto bit = std::uint16_t(1u << (d - 1));
        val[c] = std::uint8_t(d);
        cand[c] = 0;
        for (int p : peers[c]) {
            if (val[p] || !(cand[p] & bit)) continue;
            cand[p] &= std::uint16_t(~bit);
            if (!cand[p]) return false;
        }
        return true;
    }
};

struct Count {
    int solutions = 0;
    bool over_budget = false;
    std::array<Grid, 2> found{};
    long budget = 0;
    bool known() const { return !over_budget; }
};

void search(const Board &b, Count &k, int limit) {
    if (k.solutions >= limit || k.over_budget) return;
    if (--k.budget < 0) {
        k.over_budget = true;
        return;
    }
    int best = -1, fewest = 10;
    for (int c = 0; c < 81 && fewest > 1; ++c) {
        if (b.val[c]) continue;
        int n = std::popcount(b.cand[c]);
        if (n < fewest) fewest = n, best = c;
    }
    if (best < 0) {
        k.found[k.solutions++] = b.val;
        return;
    }
    std::array<int, 9> digits{};
    int n = 0;
    for (int d = 1; d <= 9; ++d)
        if (b.cand[best] & (1u << (d - 1))) digits[n++] = d;
    std::span<int> mine(digits.data(), std::size_t(n));
    std::ranges::shuffle(mine, rng);
    for (int d : mine) {
        Board next = b;
        if (next.assign(best, d)) search(next, k, limit);
        if (k.solutions >= limit || k.over_budget) return;
    }
}

// Solutions of the grid, counted up to `limit`, within `budget` search nodes.
Count count(std::span<const std::uint8_t, 81> grid, int limit, long budget) {
    Count k;
    k.budget = budget;
    Board b;
    b.cand.fill(0x1FF);
    for (int c = 0; c < 81; ++c) {
        int d = grid[c];
        if (!d) continue;
        if (!(b.cand[c] & (1u << (d - 1))) || !b.assign(c, d)) return k;  // no solution
    }
    search(b, k, limit);
    return k;
}

// The count again with other random orders while one runs over its budget: a backtracking
// search has a heavy tail, and a restart cuts it.
Count count_restarting(std::span<const std::uint8_t, 81> grid, int limit, long budget, int tries) {
    Count best = count(grid, limit, budget);
    for (int i = 1; i < tries && best.over_budget && best.solutions < limit; ++i) {
        Count k = count(grid, limit, budget);
        if (k.known() || k.solutions > best.solutions) best = k;
    }
    return best;
}

struct Move {
    int cell, digit;
};

std::string text(Move m) {
    return {char('A' + m.cell / 9), char('a' + m.cell % 9), char('0' + m.digit)};
}

bool allowed(const Grid &grid, int c, int d) {
    return !grid[c] && std::ranges::none_of(peers[c], [&](int p) { return grid[p] == d; });
}

std::string choose(const Grid &grid) {
    Count now = count_restarting(grid, 2, 20000, 30);
    if (now.known() && now.solutions == 1) return "!";
    if (now.known() && now.solutions == 0) return "!";  // cannot happen: the opponent's move would have lost
    auto after = [&](Move m, long budget) {
        Grid next = grid;
        next[m.cell] = std::uint8_t(m.digit);
        return count(next, 2, budget);
    };
    // A move that leaves a single solution wins; one needs 17 digits at least.
    auto filled = std::ranges::count_if(grid, [](std::uint8_t d) { return d != 0; });
    if (filled >= 16) {
        std::vector<Move> moves;
        for (int c = 0; c < 81; ++c)
            for (int d = 1; d <= 9; ++d)
                if (allowed(grid, c, d)) moves.push_back({c, d});
        std::ranges::shuffle(moves, rng);
        for (Move m : moves) {
            Count k = after(m, 3000);
            if (k.known() && k.solutions == 1) return text(m) + "!";
        }
    }
    const Grid &one = now.found[0];
    if (now.solutions < 2) {  // every count ran out of budget, one solution at most: play into it
        for (int c = 0; c < 81; ++c)
            if (!grid[c]) return text({c, one[c]});
    }
    const Grid &two = now.found[1];
    std::vector<Move> moves;
    for (int c = 0; c < 81; ++c)
        if (one[c] != two[c]) moves.push_back({c, rng() & 1 ? one[c] : two[c]});
    std::ranges::shuffle(moves, rng);
    for (Move m : moves) {
        Count k = after(m, 20000);
        if (k.solutions == 1 && k.known()) return text(m) + "!";
        if (k.solutions >= 2 || !k.known()) return text(m);
    }
    return text(moves.front());
}

}  // namespace

int main() {
    init_peers();
    Grid grid{};
    std::string line;
    while (std::getline(std::cin, line)) {
        std::erase_if(line, [](char ch) { return ch == ' ' || ch == '\r'; });
        if (line.empty()) continue;
        if (line == "Quit") break;
        if (line != "Start") grid[(line[0] - 'A') * 9 + (line[1] - 'a')] = std::uint8_t(line[2] - '0');
        std::string move = choose(grid);
        if (move.size() >= 3) grid[(move[0] - 'A') * 9 + (move[1] - 'a')] = std::uint8_t(move[2] - '0');
        std::cout << move << std::endl;
    }
}
