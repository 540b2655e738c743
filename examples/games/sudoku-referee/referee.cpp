// CodeCup 2024 Sudoku as an uploaded game: a referee that speaks the platform's referee
// protocol (docs/referee-protocol.md) and judges every reply as the built-in game does
// (games/sudoku/rules.py), with nothing of the platform in it. Standard C++17 only.
//
// The players hear what CodeCup's judge told them: the first player "Start", then each the
// opponent's last move, and "Quit" at the end. Results, as CodeCup scored them (winner 2):
//   unparsable or on an occupied cell   ILLEGAL                0-2
//   digit already in its row/col/box    DOUBLED_SOMEWHERE      0-2
//   leaves no solution                  NO_SOLUTIONS_LEFT      1-2
//   does not decrease the solutions     NO_SOLUTION_DECREASED  1-2
//   a false claim of uniqueness         NO_UNIQUE_CLAIM        0-2
//   a true claim                        WIN                    2-1 (the other seat LOSE)
//   no answer in time / crash / exit    TIMEOUT 1-2, CRASH 0-2, EXIT 0-2
#include <array>
#include <bitset>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

const std::string ROWS = "ABCDEFGHI";
const std::string COLS = "abcdefghi";
constexpr uint16_t ALL_DIGITS = 0x1FF;  // digit d is bit d - 1

uint16_t bit(int digit) { return static_cast<uint16_t>(1u << (digit - 1)); }
int box_of(int cell) { return cell / 27 * 3 + cell % 9 / 3; }
int ones(uint16_t mask) { return static_cast<int>(std::bitset<9>(mask).count()); }

// The 27 units, each as its 9 cells: rows 0-8, columns 9-17, boxes 18-26.
std::array<std::array<int, 9>, 27> make_units() {
    std::array<std::array<int, 9>, 27> units{};
    for (int cell = 0; cell < 81; ++cell) {
        int row = cell / 9, col = cell % 9;
        units[row][col] = cell;
        units[9 + col][row] = cell;
        units[18 + box_of(cell)][row % 3 * 3 + col % 3] = cell;
    }
    return units;
}
const std::array<std::array<int, 9>, 27> UNITS = make_units();

struct Grid {
    std::array<int, 81> digit{};  // 0 for an empty cell
    std::array<uint16_t, 27> held{};  // the digits each unit holds
    int empty = 81;

    uint16_t held_around(int cell) const { return held[cell / 9] | held[9 + cell % 9] | held[18 + box_of(cell)]; }

    void put(int cell, int d) {
        digit[cell] = d;
        for (int unit : {cell / 9, 9 + cell % 9, 18 + box_of(cell)}) held[unit] |= bit(d);
        --empty;
    }

    void clear(int cell) {
        for (int unit : {cell / 9, 9 + cell % 9, 18 + box_of(cell)}) held[unit] &= ~bit(digit[cell]);
        digit[cell] = 0;
        ++empty;
    }
};

// Counts the solutions of a grid up to a limit, leaving out those with `banned_digit` in
// `banned_cell` (how "the move decreases the number of solutions" is asked). Depth first, and
// at every step the choice with the fewest options, as exact cover searches: an empty cell
// and the digits it can take, or a digit a unit lacks and the cells that can take it. A choice
// with no option ends the branch and a choice with one is a forced step, so a contradiction in
// a nearly empty grid (a digit with no place left in a box) is found at once.
class SolutionCounter {
  public:
    SolutionCounter(int limit, int banned_cell, int banned_digit)
        : limit_(limit), banned_cell_(banned_cell), banned_(banned_digit ? bit(banned_digit) : 0) {}

    int count(Grid grid) {
        found_ = 0;
        search(grid);
        return found_;
    }

  private:
    int limit_, banned_cell_;
    uint16_t banned_;
    int found_ = 0;

    uint16_t options(const Grid& grid, int cell) const {
        uint16_t free = ALL_DIGITS & ~grid.held_around(cell);
        return cell == banned_cell_ ? free & ~banned_ : free;
    }

    void search(Grid& grid) {
        if (grid.empty == 0) {
            ++found_;
            return;
        }
        std::array<uint16_t, 81> options_of{};
        int fewest = 10, best_cell = -1, best_unit = -1, best_digit = 0;
        for (int cell = 0; cell < 81; ++cell) {
            if (grid.digit[cell]) continue;
            options_of[cell] = options(grid, cell);
            int n = ones(options_of[cell]);
            if (n == 0) return;
            if (n < fewest) {
                fewest = n;
                best_cell = cell;
            }
        }
        for (int unit = 0; unit < 27 && fewest > 1; ++unit) {
            for (int d = 1; d <= 9; ++d) {
                if (grid.held[unit] & bit(d)) continue;
                int places = 0;
                for (int cell : UNITS[unit]) places += !grid.digit[cell] && (options_of[cell] & bit(d));
                if (places == 0) return;
                if (places < fewest) {
                    fewest = places;
                    best_unit = unit;
                    best_digit = d;
                }
            }
        }
        if (best_unit < 0) {
            for (int d = 1; d <= 9 && found_ < limit_; ++d) {
                if (!(options_of[best_cell] & bit(d))) continue;
                grid.put(best_cell, d);
                search(grid);
                grid.clear(best_cell);
            }
        } else {
            for (int cell : UNITS[best_unit]) {
                if (found_ >= limit_) break;
                if (grid.digit[cell] || !(options_of[cell] & bit(best_digit))) continue;
                grid.put(cell, best_digit);
                search(grid);
                grid.clear(cell);
            }
        }
    }
};

int count_solutions(const Grid& grid, int limit, int banned_cell = -1, int banned_digit = 0) {
    return SolutionCounter(limit, banned_cell, banned_digit).count(grid);
}

// What Python's str.strip() takes off a reply (the built-in referee strips replies so):
// every Unicode whitespace character, in UTF-8, not only spaces.
const std::vector<std::string> WHITESPACE = {
    "\t", "\n", "\v", "\f", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ",
    "\xc2\x85", "\xc2\xa0", "\xe1\x9a\x80",
    "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85",
    "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a",
    "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80",
};

// The length of a whitespace character at the front (or the back) of text[begin, end), or 0.
size_t space_at(const std::string& text, size_t begin, size_t end, bool back) {
    for (const std::string& space : WHITESPACE) {
        if (end - begin < space.size()) continue;
        if (text.compare(back ? end - space.size() : begin, space.size(), space) == 0) return space.size();
    }
    return 0;
}

std::string stripped(const std::string& text) {
    size_t begin = 0, end = text.size();
    while (size_t n = space_at(text, begin, end, false)) begin += n;
    while (size_t n = space_at(text, begin, end, true)) end -= n;
    return text.substr(begin, end - begin);
}

// The protocol's lines. Input that ends means the platform called the game off: exit quietly.
std::string read_line() {
    std::string line;
    if (!std::getline(std::cin, line)) std::exit(0);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

void say(const std::string& line) { std::cout << line << '\n' << std::flush; }

[[noreturn]] void not_the_protocol(const std::string& line) {
    std::cerr << "sudoku referee: not a line of the protocol here: " << line.substr(0, 100) << '\n';
    std::exit(1);
}

enum class Heard { REPLY, TIMEOUT, CRASH, EXIT };
struct Answer {
    Heard heard;
    std::string text;  // a reply, stripped
};

// A seat's next reply that is not blank, or the fault the platform saw. Blank lines are read
// over, as the built-in referee and CodeCup's judge did.
Answer ask(int seat) {
    const std::string number = std::to_string(seat);
    for (;;) {
        say("ask " + number);
        std::string line = read_line();
        if (line == "timeout " + number) return {Heard::TIMEOUT, ""};
        if (line == "crash " + number) return {Heard::CRASH, ""};
        if (line == "exit " + number) return {Heard::EXIT, ""};
        const std::string reply = "reply " + number;
        if (line.compare(0, reply.size(), reply) != 0) not_the_protocol(line);
        if (line.size() > reply.size() && line[reply.size()] != ' ') not_the_protocol(line);
        std::string text = stripped(line.size() > reply.size() ? line.substr(reply.size() + 1) : "");
        if (!text.empty()) return {Heard::REPLY, text};
    }
}

struct Place {
    int cell, digit;
    bool claim;
};

// "Dg7" or "Dg7!": row A-I, column a-i, digit 1-9, then the claim.
bool parse_place(const std::string& text, Place& place) {
    if (text.size() != 3 && !(text.size() == 4 && text[3] == '!')) return false;
    size_t row = ROWS.find(text[0]), col = COLS.find(text[1]);
    if (row == std::string::npos || col == std::string::npos || text[2] < '1' || text[2] > '9') return false;
    place = {static_cast<int>(row * 9 + col), text[2] - '0', text.size() == 4};
    return true;
}

std::string cell_name(int cell) { return std::string{ROWS[cell / 9], COLS[cell % 9]}; }

// How a game ends: the CodeCup name of the seat that ended it (the other seat's follows).
struct Ending {
    std::string name;  // empty while the game goes on
    std::string why;
};

class Referee {
  public:
    void play() {
        frame(-1, {"the empty grid; seat 0 moves first"});
        std::string last = "Start";
        for (int seat = 0;; seat = 1 - seat) {
            say("send " + std::to_string(seat) + " " + last);
            Answer answer = ask(seat);
            std::string where = "move " + std::to_string(moves_ + 1) + ", seat " + std::to_string(seat) + ": ";
            if (answer.heard == Heard::TIMEOUT) return finish(seat, {"TIMEOUT", where + "out of time"});
            if (answer.heard == Heard::CRASH) return finish(seat, {"CRASH", where + "crashed"});
            if (answer.heard == Heard::EXIT) return finish(seat, {"EXIT", where + "stopped before the game ended"});
            int made = moves_;
            Ending ending = judge(answer.text, where);
            if (moves_ > made) {
                std::vector<std::string> text{last_move_ + " by seat " + std::to_string(seat)};
                if (!ending.name.empty()) text.push_back(ending.why);
                frame(last_cell_, text);
            }
            if (!ending.name.empty()) return finish(seat, ending);
            last = last_move_;
        }
    }

  private:
    Grid grid_;
    int moves_ = 0;  // moves made; a reply the rules refuse is none
    std::string last_move_;
    int last_cell_ = -1;

    // A reply judged as rules.py's parse_move and apply judge it, in the same order.
    Ending judge(const std::string& text, const std::string& where) {
        if (text == "!") {
            made("!", -1);
            if (count_solutions(grid_, 2) == 1) return {"WIN", where + "rightly claimed a single solution"};
            return {"NO_UNIQUE_CLAIM", where + "! but more than one solution is left"};
        }
        Place place{};
        if (!parse_place(text, place)) return {"ILLEGAL", where + "not a move (like Dg7, Dg7! or !)"};
        std::string name = cell_name(place.cell) + std::to_string(place.digit) + (place.claim ? "!" : "");
        if (grid_.digit[place.cell])
            return {"ILLEGAL", where + name + ": " + cell_name(place.cell) + " already holds " +
                                   std::to_string(grid_.digit[place.cell])};
        if (grid_.held_around(place.cell) & bit(place.digit))
            return {"DOUBLED_SOMEWHERE", where + name + ": its row, column or box already holds a " +
                                             std::to_string(place.digit)};
        Grid before = grid_;
        grid_.put(place.cell, place.digit);
        made(name, place.cell);
        int after = count_solutions(grid_, 2);
        if (after == 0) return {"NO_SOLUTIONS_LEFT", where + name + " leaves no solution"};
        if (count_solutions(before, 1, place.cell, place.digit) == 0)
            return {"NO_SOLUTION_DECREASED", where + name + " does not decrease the number of solutions (the cell " +
                                                 "could only hold " + std::to_string(place.digit) + ")"};
        if (place.claim && after == 1) return {"WIN", where + name + " left a single solution, rightly claimed"};
        if (place.claim) return {"NO_UNIQUE_CLAIM", where + name + " claimed, but solutions remain"};
        return {};
    }

    void made(const std::string& move, int cell) {
        ++moves_;
        last_move_ = move;
        last_cell_ = cell;
    }

    void frame(int mark, const std::vector<std::string>& text) {
        std::string json = "{\"grid\": [";
        for (int row = 0; row < 9; ++row) {
            json += row ? ", \"" : "\"";
            for (int col = 0; col < 9; ++col) {
                int d = grid_.digit[row * 9 + col];
                json += d ? static_cast<char>('0' + d) : '.';
            }
            json += "\"";
        }
        json += "], \"marks\": [";
        if (mark >= 0) json += "[" + std::to_string(mark / 9) + ", " + std::to_string(mark % 9) + "]";
        json += "], \"text\": [";
        for (size_t i = 0; i < text.size(); ++i) json += (i ? ", \"" : "\"") + text[i] + "\"";
        say("frame " + json + "]}");
    }

    // The seat ended the game: `ending.name` is its result, the other seat has WIN, or LOSE
    // when the seat won by its claim. Both programs read Quit.
    void finish(int seat, const Ending& ending) {
        std::array<std::string, 2> names;
        names[seat] = ending.name;
        names[1 - seat] = ending.name == "WIN" ? "LOSE" : "WIN";
        std::string points, words;
        for (const std::string& name : names) {
            points += " " + points_of(name);
            words += " " + word_of(name) + ":" + name;
        }
        say("send 0 Quit");
        say("send 1 Quit");
        say("reason " + ending.why);
        say("result" + points + " |" + words);
    }

    static std::string points_of(const std::string& name) {
        if (name == "WIN") return "2";
        if (name == "LOSE" || name == "NO_SOLUTIONS_LEFT" || name == "NO_SOLUTION_DECREASED" || name == "TIMEOUT")
            return "1";
        return "0";  // ILLEGAL, DOUBLED_SOMEWHERE, NO_UNIQUE_CLAIM, CRASH, EXIT
    }

    // The platform's word for each CodeCup result (rules.py's STATUS): breaking the rules is a
    // fault, the mistakes that are hard to check are losses.
    static std::string word_of(const std::string& name) {
        if (name == "WIN") return "win";
        if (name == "ILLEGAL" || name == "DOUBLED_SOMEWHERE") return "illegal";
        if (name == "TIMEOUT") return "timeout";
        if (name == "CRASH") return "crash";
        if (name == "EXIT") return "exit";
        return "loss";  // LOSE, NO_SOLUTIONS_LEFT, NO_SOLUTION_DECREASED, NO_UNIQUE_CLAIM
    }
};

// The platform's header: "seats N", a "param" per parameter (Sudoku has none), "seed", "begin".
void read_header() {
    for (;;) {
        std::string line = read_line();
        if (line == "begin") return;
        if (line.compare(0, 6, "seats ") == 0 && line != "seats 2") {
            std::cerr << "sudoku referee: Sudoku is a game of 2 seats, not " << line.substr(6) << '\n';
            std::exit(1);
        }
    }
}

}  // namespace

int main() {
    read_header();
    Referee().play();
    std::string rest;
    while (std::getline(std::cin, rest)) {}  // the platform closes our input when it is done
}
