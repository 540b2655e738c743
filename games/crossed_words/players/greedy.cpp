// Crossed Words Solitaire (MSO, December 2000): a greedy player with randomized restarts.
//
// Reads the three piles (input10/13/1310.txt), the dictionary (dict10, dict13 or dict1310,
// a.txt ... z.txt) and the time limit (seconds.txt or seconds10.txt) from the working folder
// and writes output.txt. The words go into a trie; moves are generated the Appel-Jacobson way
// (anchor squares next to the letters on the board, a left part of free squares, then an
// extension to the right, with per-square cross-checks), across and, on the transposed
// board, down. Each move looks at every draw the rules allow (no draw, or 1..8 letters from
// the left end of one pile, hand at most 8) and plays the best move of all of them by score
// plus a small heuristic: a penalty per letter played (the game usually uses all 198 tiles, so
// points per tile count), per letter drawn, and for a poor leave (Q without U, duplicates,
// too many or too few vowels). Some games look two plies ahead: each of the four best moves
// plus the best move after it. When no draw gives a move, it discards the letters that let
// the best move be played after a new draw, if that move pays for them or many tiles are
// left. The game ends when nothing is playable. Later games use random weights and noise, half of them starting
// from a prefix of the best game so far; the best game is written at about 60% of the limit.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int N = 17;
const int VAL[26] = {2, 6, 4, 4, 1, 7, 5, 6, 1, 9, 7, 3, 5, 2, 3, 5, 9, 2, 1, 3, 4, 8, 7, 8, 6, 8};
// The page's drawing: T triple word, D double word, 2 double letter, 3 triple letter.
const char* BONUS[N] = {
    "T...2...T...2...T", ".3.....3.3.....3.", "..D...D...D...D..", "...3.3.....3.3...",
    "2...T...2...T...2", "...3.3.....3.3...", "..D...D...D...D..", ".3.....3.3.....3.",
    "T...2...T...2...T", ".3.....3.3.....3.", "..D...D...D...D..", "...3.3.....3.3...",
    "2...T...2...T...2", "...3.3.....3.3...", "..D...D...D...D..", ".3.....3.3.....3.",
    "T...2...T...2...T"};
int LM[N][N], WM[N][N];  // letter and word multipliers

using Clock = std::chrono::steady_clock;
Clock::time_point t0;
double elapsed() { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// ---------------------------------------------------------------- dictionary
struct Node {
    int child[26];
    bool term;
};
std::vector<Node> trie;

int new_node() {
    trie.push_back(Node{});
    std::fill(trie.back().child, trie.back().child + 26, 0);
    trie.back().term = false;
    return (int)trie.size() - 1;
}

void add_word(const std::string& w) {
    int n = 0;
    for (char ch : w) {
        int c = ch - 'A';
        if (!trie[n].child[c]) {
            int k = new_node();
            trie[n].child[c] = k;
        }
        n = trie[n].child[c];
    }
    trie[n].term = true;
}

bool is_word(const std::string& w) {
    int n = 0;
    for (char ch : w) {
        n = trie[n].child[ch - 'A'];
        if (!n) return false;
    }
    return trie[n].term;
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : s) {
        if (ch == '\r' || ch == '\n') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// Upper case; empty if anything but letters (after trimming blanks).
std::string clean(const std::string& s) {
    std::string w;
    for (char ch : s) {
        if (ch == ' ' || ch == '\t') continue;
        if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
        if (ch < 'A' || ch > 'Z') return "";
        w += ch;
    }
    return w;
}

int load_dictionary() {
    int words = 0;
    const char* dirs[] = {"dict10/", "dict13/", "dict1310/", ""};
    for (const char* d : dirs) {
        for (int c = 0; c < 26; ++c) {
            std::string text;
            if (!read_file(std::string(d) + char('a' + c) + ".txt", text)) continue;
            for (const std::string& line : split_lines(text)) {
                std::string w = clean(line);
                if (w.size() >= 2 && w.size() <= (size_t)N) {
                    add_word(w);
                    ++words;
                }
            }
        }
        if (words) break;
    }
    return words;
}

// ---------------------------------------------------------------- game state
struct State {
    char board[N][N];   // 0 = empty, else 'A'..'Z'
    int hand[26];       // letters in hand
    int pos[3];         // letters already drawn from each pile
    int score;
    int moves;          // words played
    size_t log_len;     // lines of the log belonging to this state
};

std::string piles[3];

struct Weights {
    double draw, tile, leave, noise, look;  // look: weight of the best next move (0: none)
};

uint64_t rng_state = 88172645463325252ULL;
uint64_t rng() {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
double urand() { return (rng() >> 11) * (1.0 / 9007199254740992.0); }

int hand_size(const int* h) {
    int n = 0;
    for (int c = 0; c < 26; ++c) n += h[c];
    return n;
}

double leave_value(const int* h) {
    int n = 0, v = 0;
    double pen = 0;
    for (int c = 0; c < 26; ++c) {
        n += h[c];
        if (c == 0 || c == 4 || c == 8 || c == 14 || c == 20) v += h[c];
        if (h[c] > 1) pen += 2.0 * (h[c] - 1);
    }
    if (h['Q' - 'A'] && !h['U' - 'A']) pen += 8;
    if (n) pen += 3.0 * std::abs(v - 0.4 * n);
    return -pen;
}

// ---------------------------------------------------------------- move generation
struct Move {
    bool found = false;
    double eval = -1e18;
    int score = 0;
    int dir = 0, row = 0, col = 0;  // first letter, 0-based, dir 0 across 1 down
    std::string word;
};

void keep_candidate(const Move& m);
extern size_t cand_k;

struct Gen {
    // The board seen in one direction: B[r][c] is board[r][c] across, board[c][r] down.
    char B[N][N];
    int lm[N][N], wm[N][N];
    uint32_t cross[N][N];  // letters allowed by the perpendicular word
    bool has_cross[N][N];
    int cross_sum[N][N], cross_wm[N][N];
    bool anchor[N][N];
    int dir;
    int rack[26];
    int rack_n;
    const Weights* w;
    double extra;  // draw penalty of this option
    Move* best;

    int row, anc;
    char word[N + 1];
    int main_sum, main_wm, cross_total, tiles;

    void setup(const char (&board)[N][N], int d, bool empty_board) {
        dir = d;
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < N; ++c) {
                int br = d ? c : r, bc = d ? r : c;
                B[r][c] = board[br][bc];
                lm[r][c] = LM[br][bc];
                wm[r][c] = WM[br][bc];
            }
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < N; ++c) {
                has_cross[r][c] = false;
                cross[r][c] = (1u << 26) - 1;
                anchor[r][c] = false;
                if (B[r][c]) continue;
                bool adj = (r > 0 && B[r - 1][c]) || (r < N - 1 && B[r + 1][c]) || (c > 0 && B[r][c - 1]) ||
                           (c < N - 1 && B[r][c + 1]);
                anchor[r][c] = empty_board || adj;
                if (!((r > 0 && B[r - 1][c]) || (r < N - 1 && B[r + 1][c]))) continue;
                int top = r, bot = r;
                while (top > 0 && B[top - 1][c]) --top;
                while (bot < N - 1 && B[bot + 1][c]) ++bot;
                int sum = 0, m = wm[r][c];
                for (int k = top; k <= bot; ++k)
                    if (k != r) {
                        sum += VAL[B[k][c] - 'A'] * lm[k][c];
                        m *= wm[k][c];
                    }
                has_cross[r][c] = true;
                cross_sum[r][c] = sum;
                cross_wm[r][c] = m;
                uint32_t mask = 0;
                int n0 = 0;
                bool ok = true;
                for (int k = top; k < r; ++k) {
                    n0 = trie[n0].child[B[k][c] - 'A'];
                    if (!n0) {
                        ok = false;
                        break;
                    }
                }
                if (ok)
                    for (int L = 0; L < 26; ++L) {
                        int n = trie[n0].child[L];
                        for (int k = r + 1; n && k <= bot; ++k) n = trie[n].child[B[k][c] - 'A'];
                        if (n && trie[n].term) mask |= 1u << L;
                    }
                cross[r][c] = mask;
            }
    }

    void record(int end_col) {  // the word occupies [end_col - len, end_col)
        int len = 0;
        while (word[len]) ++len;
        if (len < 2 || tiles == 0) return;
        int sc = main_sum * main_wm + cross_total;
        if (tiles == 7 && len >= 7) sc += 50;
        if (tiles == 8 && len >= 8) sc += 100;
        double ev = sc - w->tile * tiles + w->leave * leave_value(rack) - extra;
        if (w->noise > 0) ev += w->noise * urand();
        if (cand_k) {
            Move m;
            m.found = true, m.eval = ev, m.score = sc, m.dir = dir;
            int c0 = end_col - len;
            m.row = dir ? c0 : row;
            m.col = dir ? row : c0;
            m.word.assign(word, len);
            keep_candidate(m);
        }
        if (ev > best->eval) {
            best->found = true;
            best->eval = ev;
            best->score = sc;
            best->dir = dir;
            int c0 = end_col - len;
            best->row = dir ? c0 : row;
            best->col = dir ? row : c0;
            best->word.assign(word, len);
        }
    }

    // Place letter L (0..25) at column c, from the rack if the square is empty.
    void extend_right(int node, int c, int len) {
        if (c == N || !B[row][c]) {
            if (trie[node].term && c > anc) {
                word[len] = 0;
                record(c);
            }
            if (c == N) return;
            uint32_t allowed = cross[row][c];
            for (int L = 0; L < 26; ++L) {
                if (!rack[L] || !(allowed >> L & 1)) continue;
                int nx = trie[node].child[L];
                if (!nx) continue;
                int v = VAL[L] * lm[row][c];
                --rack[L];
                word[len] = (char)('A' + L);
                int s0 = main_sum, w0 = main_wm, x0 = cross_total;
                main_sum += v;
                main_wm *= wm[row][c];
                if (has_cross[row][c]) cross_total += (cross_sum[row][c] + v) * cross_wm[row][c];
                ++tiles;
                extend_right(nx, c + 1, len + 1);
                --tiles;
                main_sum = s0, main_wm = w0, cross_total = x0;
                ++rack[L];
            }
        } else {
            int L = B[row][c] - 'A';
            int nx = trie[node].child[L];
            if (!nx) return;
            word[len] = B[row][c];
            int s0 = main_sum, w0 = main_wm;
            main_sum += VAL[L] * lm[row][c];
            main_wm *= wm[row][c];
            extend_right(nx, c + 1, len + 1);
            main_sum = s0, main_wm = w0;
        }
    }

    void run(const int* r0, Move* out, const Weights* wt, double pen) {
        for (int L = 0; L < 26; ++L) rack[L] = r0[L];
        rack_n = hand_size(rack);
        best = out;
        w = wt;
        extra = pen;
        for (row = 0; row < N; ++row)
            for (anc = 0; anc < N; ++anc) {
                if (!anchor[row][anc]) continue;
                main_sum = 0, main_wm = 1, cross_total = 0, tiles = 0;
                if (anc > 0 && B[row][anc - 1]) {
                    int s = anc;
                    while (s > 0 && B[row][s - 1]) --s;
                    int node = 0, len = 0;
                    for (int c = s; c < anc && node >= 0; ++c) {
                        int L = B[row][c] - 'A';
                        node = trie[node].child[L];
                        if (!node) break;
                        word[len++] = B[row][c];
                        main_sum += VAL[L] * lm[row][c];
                        main_wm *= wm[row][c];
                    }
                    if (node) extend_right(node, anc, len);
                } else {
                    int limit = 0;
                    while (anc - limit - 1 >= 0 && !B[row][anc - limit - 1] && !anchor[row][anc - limit - 1]) ++limit;
                    limit = std::max(0, std::min(limit, rack_n - 1));
                    left_part_scored(0, 0, limit);
                }
            }
    }

    // As left_part, keeping the score of the letters already put to the left of the anchor.
    void left_part_scored(int node, int len, int limit) {
        // Letters word[0..len) sit on anc-len .. anc-1: they have no cross-words (those squares
        // are not anchors, so they have no neighbours), only main-word value.
        int s0 = main_sum, w0 = main_wm, t0_ = tiles;
        for (int k = 0; k < len; ++k) {
            int c = anc - len + k;
            main_sum += VAL[word[k] - 'A'] * lm[row][c];
            main_wm *= wm[row][c];
        }
        tiles += len;
        extend_right(node, anc, len);
        main_sum = s0, main_wm = w0, tiles = t0_;
        if (limit == 0) return;
        for (int L = 0; L < 26; ++L) {
            if (!rack[L]) continue;
            int nx = trie[node].child[L];
            if (!nx) continue;
            --rack[L];
            word[len] = (char)('A' + L);
            left_part_scored(nx, len + 1, limit - 1);
            ++rack[L];
        }
    }
};

Gen gen[2];

// With lookahead, the best few moves of all draws are kept, and the draw that led to each.
struct Cand {
    Move m;
    int p, k;
};
std::vector<Cand> cands;
size_t cand_k = 0;
int cur_p, cur_k;

void keep_candidate(const Move& m) {
    if (cands.size() < cand_k) {
        cands.push_back({m, cur_p, cur_k});
        return;
    }
    size_t lo = 0;
    for (size_t i = 1; i < cands.size(); ++i)
        if (cands[i].m.eval < cands[lo].m.eval) lo = i;
    if (m.eval > cands[lo].m.eval) cands[lo] = {m, cur_p, cur_k};
}

bool board_empty(const State& s) {
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c)
            if (s.board[r][c]) return false;
    return true;
}

void prepare(const State& s) {
    bool e = board_empty(s);
    gen[0].setup(s.board, 0, e);
    gen[1].setup(s.board, 1, e);
}

void best_for_rack(const int* rack, Move& m, const Weights& w, double pen) {
    gen[0].run(rack, &m, &w, pen);
    gen[1].run(rack, &m, &w, pen);
}

// ---------------------------------------------------------------- applying a move
std::vector<std::string> logv;  // the move lines of the game in progress

std::string letters_of(const int* cnt) {
    std::string s;
    for (int c = 0; c < 26; ++c) s += std::string(cnt[c], char('A' + c));
    return s;
}

void do_draw(State& s, int p, int k) {
    std::string t = piles[p].substr(s.pos[p], k);
    for (char ch : t) ++s.hand[ch - 'A'];
    s.pos[p] += k;
    logv.resize(s.log_len);
    logv.push_back("DRAW " + std::to_string(p + 1) + " " + t);
    s.log_len = logv.size();
}

void do_discard(State& s, const int* d) {
    int cost = 0;
    for (int c = 0; c < 26; ++c) {
        s.hand[c] -= d[c];
        cost += d[c] * VAL[c];
    }
    s.score -= cost;
    logv.resize(s.log_len);
    logv.push_back("DISCARD " + letters_of(d) + " -" + std::to_string(cost));
    s.log_len = logv.size();
}

int word_score(const State& s, int r, int c, int dr, int dc, int len) {
    int sum = 0, m = 1;
    for (int k = 0; k < len; ++k) {
        int rr = r + dr * k, cc = c + dc * k;
        sum += VAL[s.board[rr][cc] - 'A'] * LM[rr][cc];
        m *= WM[rr][cc];
    }
    return sum * m;
}

// Plays the move, checks it from scratch and logs it; false (state unchanged) if anything is off.
bool do_play(State& s, const Move& m) {
    State t = s;
    int dr = m.dir ? 1 : 0, dc = m.dir ? 0 : 1;
    int len = (int)m.word.size();
    std::vector<std::pair<int, int>> placed;
    for (int k = 0; k < len; ++k) {
        int r = m.row + dr * k, c = m.col + dc * k;
        if (r >= N || c >= N) return false;
        int L = m.word[k] - 'A';
        if (t.board[r][c]) {
            if (t.board[r][c] != m.word[k]) return false;
        } else {
            if (!t.hand[L]) return false;
            --t.hand[L];
            t.board[r][c] = m.word[k];
            placed.push_back({r, c});
        }
    }
    if (placed.empty()) return false;
    int br = m.row - dr, bc = m.col - dc, ar = m.row + dr * len, ac = m.col + dc * len;
    if (br >= 0 && bc >= 0 && t.board[br][bc]) return false;
    if (ar < N && ac < N && t.board[ar][ac]) return false;
    if (!is_word(m.word)) return false;
    bool first = board_empty(s), touches = false;
    std::vector<std::string> lines;
    int total = word_score(t, m.row, m.col, dr, dc, len);
    lines.push_back("PLAY " + std::to_string(m.row + 1) + " " + std::to_string(m.col + 1) + " " +
                    (m.dir ? "D " : "A ") + m.word + " " + std::to_string(total));
    for (auto [r, c] : placed) {
        for (int d = 0; d < 4; ++d) {
            int rr = r + (d == 0) - (d == 1), cc = c + (d == 2) - (d == 3);
            if (rr >= 0 && rr < N && cc >= 0 && cc < N && s.board[rr][cc]) touches = true;
        }
        int pr = dc, pc = dr;  // perpendicular step
        int r0 = r, c0 = c;
        while (r0 - pr >= 0 && c0 - pc >= 0 && t.board[r0 - pr][c0 - pc]) r0 -= pr, c0 -= pc;
        std::string w;
        int rr = r0, cc = c0;
        while (rr < N && cc < N && t.board[rr][cc]) w += t.board[rr][cc], rr += pr, cc += pc;
        if (w.size() < 2) continue;
        if (!is_word(w)) return false;
        int sc = word_score(t, r0, c0, pr, pc, (int)w.size());
        total += sc;
        lines.push_back("ALSO " + w + " " + std::to_string(sc));
    }
    if (!first && !touches) return false;
    int n = (int)placed.size();
    if (n == 7 && len >= 7) total += 50, lines.push_back("BONUS 50");
    if (n == 8 && len >= 8) total += 100, lines.push_back("BONUS 100");
    if (total != m.score) {
        std::fprintf(stderr, "score mismatch %s %d %d\n", m.word.c_str(), total, m.score);
        return false;
    }
    t.score += total;
    t.moves += 1;
    logv.resize(t.log_len);
    for (auto& l : lines) logv.push_back(l);
    t.log_len = logv.size();
    s = t;
    return true;
}

// ---------------------------------------------------------------- one game
double deadline;
State best_state;
std::vector<std::string> best_log;
std::vector<State> best_hist, hist;

struct Option {
    int p = -1, k = 0;  // draw
    int disc[26] = {0};
    bool has_disc = false;
    Move m;
};

// The best move after an optional discard d (may be null): every allowed draw.
void consider_draws(const State& s, const int* disc, bool must_draw, const Weights& w, Option& best) {
    int h[26];
    for (int c = 0; c < 26; ++c) h[c] = s.hand[c] - (disc ? disc[c] : 0);
    int n = hand_size(h);
    int cost = 0;
    if (disc)
        for (int c = 0; c < 26; ++c) cost += disc[c] * VAL[c];
    auto try_rack = [&](const int* rack, int p, int k) {
        Move m;
        cur_p = p, cur_k = k;
        best_for_rack(rack, m, w, w.draw * k + cost);
        if (m.found && m.eval > best.m.eval) {
            best.m = m;
            best.p = p;
            best.k = k;
            best.has_disc = disc != nullptr;
            if (disc) std::copy(disc, disc + 26, best.disc);
        }
    };
    if (n > 0 && !must_draw) try_rack(h, -1, 0);
    for (int p = 0; p < 3; ++p) {
        int left = (int)piles[p].size() - s.pos[p];
        for (int k = 1; k <= std::min(8 - n, left); ++k) {
            int r[26];
            std::copy(h, h + 26, r);
            for (int i = 0; i < k; ++i) ++r[piles[p][s.pos[p] + i] - 'A'];
            try_rack(r, p, k);
        }
    }
}

void subsets(const int* h, int c, int size, int maxsize, int* cur, std::vector<std::array<int, 26>>& out) {
    if (c == 26) {
        if (size > 0) {
            std::array<int, 26> a;
            std::copy(cur, cur + 26, a.begin());
            out.push_back(a);
        }
        return;
    }
    for (int k = 0; k <= h[c] && size + k <= maxsize; ++k) {
        cur[c] = k;
        subsets(h, c + 1, size + k, maxsize, cur, out);
    }
    cur[c] = 0;
}

bool time_up() { return elapsed() > deadline; }

Weights best_w;
void play_game(State s, const Weights& w) {
    cand_k = w.look > 0 ? 4 : 0;
    prepare(s);
    while (!time_up()) {
        hist.push_back(s);
        Option best;
        cands.clear();
        consider_draws(s, nullptr, false, w, best);
        if (!best.m.found) {
            // Stuck: discard some letters (any of the at most 255 choices) and draw again.
            int n = hand_size(s.hand);
            bool can_draw = false;
            for (int p = 0; p < 3; ++p) can_draw |= s.pos[p] < (int)piles[p].size();
            if (n == 0 || !can_draw) break;
            std::vector<std::array<int, 26>> subs;
            int cur[26] = {0};
            subsets(s.hand, 0, 0, n, cur, subs);
            Weights w0 = w;
            w0.noise = 0;
            for (auto& d : subs) {
                if (time_up()) break;
                consider_draws(s, d.data(), hand_size(d.data()) == n, w0, best);
            }
            // Worth it if the move pays for the letters, or if many tiles are left to play.
            int cost = 0, left = 0;
            for (int c = 0; c < 26; ++c) cost += best.disc[c] * VAL[c];
            for (int p = 0; p < 3; ++p) left += (int)piles[p].size() - s.pos[p];
            if (!best.m.found || (best.m.score <= cost && left < 16)) break;
        }
        if (w.look > 0 && !best.has_disc && cands.size() > 1) {
            // Two plies: each kept move plus the best move after it.
            std::vector<Cand> cs = cands;
            cand_k = 0;
            Weights w1 = w;
            w1.noise = 0;
            double top = -1e18;
            for (const Cand& c : cs) {
                State t = s;
                if (c.p >= 0) do_draw(t, c.p, c.k);
                if (!do_play(t, c.m)) continue;
                prepare(t);
                Option nb;
                consider_draws(t, nullptr, false, w1, nb);
                double v = c.m.eval + w.look * (nb.m.found ? nb.m.eval : 0);
                if (v > top) top = v, best.m = c.m, best.p = c.p, best.k = c.k;
            }
            cand_k = 4;
        }
        if (best.has_disc) do_discard(s, best.disc);
        if (best.p >= 0) do_draw(s, best.p, best.k);
        if (!do_play(s, best.m)) break;  // cannot happen; keeps the game legal if it does
        prepare(s);
    }
    cand_k = 0;
    if (s.score > best_state.score || best_state.moves == 0) {
        best_state = s;
        best_w = w;
        best_log.assign(logv.begin(), logv.begin() + s.log_len);
        best_hist = hist;
        best_hist.push_back(s);
    }
}

void write_output(const State& s, const std::vector<std::string>& log) {
    FILE* f = std::fopen("output.txt", "wb");
    if (!f) return;
    std::fprintf(f, "%d\n", s.score);
    for (int r = 0; r < N; ++r) {
        for (int c = 0; c < N; ++c) std::fputc(s.board[r][c] ? s.board[r][c] : '.', f);
        std::fputc('\n', f);
    }
    std::fprintf(f,
                 "# Crossed Words Solitaire, greedy player. Line 1: total score; then the final board,\n"
                 "# row 1 first, '.' empty. Then the moves in order:\n"
                 "# DRAW p LETTERS: letters taken from the left end of pile p (1-3)\n"
                 "# DISCARD LETTERS -n: letters thrown away, their values subtracted\n"
                 "# PLAY row col A|D WORD n: word placed with its first letter at (row, col), 1-based,\n"
                 "#   A across or D down, scoring n; ALSO WORD n: another word that move formed;\n"
                 "# BONUS n: 50 for 7 letters played forming a word of 7+, 100 for 8 forming 8+.\n");
    for (auto& l : log) std::fprintf(f, "%s\n", l.c_str());
    std::fclose(f);
}

}  // namespace

int main() {
    t0 = Clock::now();
    double limit = 300;
    for (const char* name : {"seconds.txt", "seconds10.txt"}) {
        std::string t;
        if (read_file(name, t)) {
            double v = std::atof(t.c_str());
            if (v > 0) {
                limit = v;
                break;
            }
        }
    }
    deadline = 0.6 * limit - 0.3;
    for (int r = 0; r < N; ++r)
        for (int c = 0; c < N; ++c) {
            char b = BONUS[r][c];
            LM[r][c] = b == '2' ? 2 : b == '3' ? 3 : 1;
            WM[r][c] = b == 'D' ? 2 : b == 'T' ? 3 : 1;
        }
    trie.reserve(400000);
    new_node();
    int words = load_dictionary();
    for (const char* name : {"input10.txt", "input1310.txt", "input13.txt"}) {
        std::string t;
        if (!read_file(name, t)) continue;
        int k = 0;
        for (const std::string& line : split_lines(t)) {
            std::string w = clean(line);
            if (!w.empty() && k < 3) piles[k++] = w;
        }
        if (k) break;
    }
    State s0{};
    best_state = s0;
    // Games: the first plain greedy, then random weights, half of them from a prefix of the best.
    int games = 0;
    if (words > 0) {
        while (!time_up()) {
            Weights w{0.5, 10.0, 1.0, 0.0, 0.0};
            State start = s0;
            hist.clear();
            logv.clear();
            if (games > 0) {
                w.draw = urand() * 2.0;
                w.tile = urand() * 30.0;
                w.leave = urand() * 2.0;
                w.noise = urand() * 6.0;
                w.look = urand() < 0.5 ? 0.5 + 0.5 * urand() : 0.0;
                if (games > 1 && urand() < 0.5 && best_hist.size() > 1) {
                    size_t cut = rng() % (best_hist.size() - 1);
                    start = best_hist[cut];
                    hist.assign(best_hist.begin(), best_hist.begin() + cut);
                    logv.assign(best_log.begin(), best_log.begin() + start.log_len);
                }
            }
            rng_state ^= (uint64_t)games * 0x9E3779B97F4A7C15ULL;
            play_game(start, w);
            ++games;
            if (games == 1 || games % 20 == 0)
                std::printf("game %d: best %d (%.1fs)\n", games, best_state.score, elapsed());
            std::fflush(stdout);
        }
    }
    write_output(best_state, best_log);
    std::printf("score %d, %d games, %d words in the dictionary, %.1fs\n", best_state.score, games, words,
                elapsed());
    if (std::getenv("CW_DEBUG")) std::printf("weights draw %.2f tile %.2f leave %.2f noise %.2f look %.2f\n", best_w.draw, best_w.tile,
                    best_w.leave, best_w.noise, best_w.look);
    return 0;
}
