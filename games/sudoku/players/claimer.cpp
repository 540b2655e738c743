// CodeCup Sudoku: a player that wins whenever one move allows it.
//
// On its turn: if the opponent left a single solution it claims "!". Otherwise it looks at
// every legal move (digit allowed in the cell, some solution left, number of solutions
// decreased); a move that leaves exactly one solution is played with "!" and wins. Failing
// that it plays a random move that leaves at least two solutions, so that the opponent gets
// no such chance. Solutions are counted with bitmasks, propagation and fewest-candidates-first,
// within a budget of search nodes: a move whose count runs over it is left alone (it may hide a
// contradiction that takes long to prove), so every move it plays is known to be legal. When
// every count runs over the budget it counts again with a budget fifty times larger, and if even
// that is not enough it finds two solutions with no budget and plays a cell where they differ,
// with the digit of one: that solution stays and the other goes, so the move is legal. It
// never claims without having counted a single solution.
#include <array>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

using Grid = std::array<int, 81>;
std::array<std::array<int, 20>, 81> peers;

void init_peers() {
    for (int c = 0; c < 81; ++c) {
        int n = 0;
        for (int i = 0; i < 81; ++i) {
            if (i == c) continue;
            bool same_row = i / 9 == c / 9, same_col = i % 9 == c % 9;
            bool same_box = i / 27 == c / 27 && i % 9 / 3 == c % 9 / 3;
            if (same_row || same_col || same_box) peers[c][n++] = i;
        }
    }
}

#ifndef CLAIMER_BUDGET
#define CLAIMER_BUDGET 20000
#endif

long nodes_left = 0;  // the budget of the count in progress
std::vector<Grid> *solutions = nullptr;  // where a count records the solutions it finds, if anywhere

struct Search {
    Grid val;
    std::array<uint16_t, 81> cand;

    bool assign(int c, int d) {
        uint16_t bit = uint16_t(1u << (d - 1));
        val[c] = d;
        cand[c] = 0;
        for (int p : peers[c])
            if (!val[p] && (cand[p] & bit)) {
                cand[p] &= uint16_t(~bit);
                if (!cand[p]) return false;
            }
        return true;
    }

    long count(long limit) {
        if (--nodes_left < 0) return limit;  // over budget: the caller treats it as unknown
        int best = -1, fewest = 10;
        for (int c = 0; c < 81; ++c)
            if (!val[c]) {
                int n = __builtin_popcount(cand[c]);
                if (n == 1) {  // a naked single: follow it without branching
                    Search next = *this;
                    return next.assign(c, __builtin_ctz(cand[c]) + 1) ? next.count(limit) : 0;
                }
                if (n < fewest) fewest = n, best = c;
            }
        if (best < 0) {
            if (solutions) solutions->push_back(val);
            return 1;
        }
        long total = 0;
        for (uint16_t m = cand[best]; m; m &= uint16_t(m - 1)) {
            Search next = *this;
            if (next.assign(best, __builtin_ctz(m) + 1)) {
                total += next.count(limit - total);
                if (total >= limit) break;
            }
        }
        return total;
    }
};

long budget = CLAIMER_BUDGET;  // search nodes a count may take

// min(solutions, limit), or -1 when the count ran over its budget.
long count(const Grid &grid, long limit, int exclude_cell = -1, int exclude_digit = 0) {
    nodes_left = budget;
    Search s;
    s.val.fill(0);
    s.cand.fill(0x1FF);
    for (int c = 0; c < 81; ++c)
        if (grid[c] && (!(s.cand[c] & (1u << (grid[c] - 1))) || !s.assign(c, grid[c]))) return 0;
    if (exclude_cell >= 0) {
        s.cand[exclude_cell] &= uint16_t(~(1u << (exclude_digit - 1)));
        if (!s.cand[exclude_cell]) return 0;
    }
    long n = s.count(limit);
    return nodes_left < 0 ? -1 : n;
}

bool allowed(const Grid &grid, int c, int d) {
    if (grid[c]) return false;
    for (int p : peers[c])
        if (grid[p] == d) return false;
    return true;
}

std::string name(int c, int d) {
    return std::string(1, char('A' + c / 9)) + char('a' + c % 9) + char('0' + d);
}

// The move to play, or "" when no count of a move ended within the budget.
std::string choose(const Grid &grid, std::mt19937 &rng) {
    if (count(grid, 2) == 1) return "!";
    std::vector<std::pair<int, int>> keep;  // leave two or more solutions
    for (int c = 0; c < 81; ++c)
        for (int d = 1; d <= 9; ++d) {
            if (!allowed(grid, c, d)) continue;
            Grid after = grid;
            after[c] = d;
            long left = count(after, 2);
            if (left <= 0) continue;  // no solution left, or not known in time
            if (count(grid, 1, c, d) != 1) continue;  // forced (or not known in time)
            if (left == 1) return name(c, d) + "!";
            keep.emplace_back(c, d);
        }
    if (keep.empty()) return "";
    std::uniform_int_distribution<size_t> pick(0, keep.size() - 1);
    auto [c, d] = keep[pick(rng)];
    return name(c, d);
}

// Two solutions found with no budget, and a cell where they differ: the digit of the first
// there leaves it and removes the second. "!" only if a single solution is left.
std::string differing(const Grid &grid) {
    std::vector<Grid> found;
    solutions = &found;
    long saved = budget;
    budget = 1L << 62;
    count(grid, 2);
    budget = saved;
    solutions = nullptr;
    if (found.size() < 2) return "!";
    for (int c = 0; c < 81; ++c)
        if (found[0][c] != found[1][c]) return name(c, found[0][c]);
    return "!";
}

std::string play(const Grid &grid, std::mt19937 &rng) {
    std::string move = choose(grid, rng);
    if (!move.empty()) return move;
    long saved = budget;
    budget *= 50;
    move = choose(grid, rng);
    budget = saved;
    return move.empty() ? differing(grid) : move;
}

}  // namespace

int main() {
    init_peers();
    std::random_device seed;
    std::mt19937 rng(seed());
    Grid grid{};
    std::string line;
    while (std::getline(std::cin, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty()) continue;
        if (line == "Quit") break;
        if (line != "Start" && line != "!") grid[(line[0] - 'A') * 9 + (line[1] - 'a')] = line[2] - '0';
        std::string move = play(grid, rng);
        if (move != "!") grid[(move[0] - 'A') * 9 + (move[1] - 'a')] = move[2] - '0';
        std::cout << move << std::endl;
        std::cerr << "played " << move << std::endl;
    }
    return 0;
}
