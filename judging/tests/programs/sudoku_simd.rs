// CodeCup 2024 Sudoku, a small Rust player whose search picks its cell with SSE4.1
// (`_mm_minpos_epu16`): it builds only for a CPU with SSE4.1 (the codecup table's
// `-C target-cpu=native`), like entries such as NineDigits. Edition 2021, rustc 1.63.
//
// Each turn it counts the solutions of the grid (up to two, by backtracking with bitmasks and
// fewest-candidates-first). One solution: the opponent left it, claim "!". Otherwise, once the
// grid has enough digits for a unique solution, it looks for a move that leaves exactly one and
// plays it with "!". Failing that it plays a cell where its two solutions differ, with the digit
// of one of them: that solution is left and the other gone, so the move is always legal; it
// prefers such a move that leaves at least two solutions.
use std::io::{self, BufRead, Write};

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
compile_error!("simd module requires SSE4.1 (build with -C target-cpu=native)");

#[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
mod simd {
    use std::arch::x86_64::{__m128i, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_minpos_epu16};

    /// The smallest of the 88 counts and its index (the first on a tie), 8 lanes at a time.
    pub fn fewest(counts: &[u16; 88]) -> (u16, usize) {
        let mut best = u16::MAX;
        let mut at = 0;
        for chunk in 0..11 {
            // SAFETY: chunk * 8 + 8 <= 88, and the load is unaligned.
            let packed = unsafe {
                let lanes = _mm_loadu_si128(counts.as_ptr().add(chunk * 8) as *const __m128i);
                _mm_cvtsi128_si32(_mm_minpos_epu16(lanes)) as u32
            };
            let value = (packed & 0xFFFF) as u16;
            if value < best {
                best = value;
                at = chunk * 8 + ((packed >> 16) & 7) as usize;
                if value <= 1 {
                    break;
                }
            }
        }
        (best, at)
    }
}

const FILLED: u16 = u16::MAX;

struct Peers([[u8; 20]; 81]);

impl Peers {
    fn new() -> Peers {
        let mut peers = [[0u8; 20]; 81];
        for (c, row) in peers.iter_mut().enumerate() {
            let mut n = 0;
            for i in 0..81 {
                let same_row = i / 9 == c / 9;
                let same_col = i % 9 == c % 9;
                let same_box = i / 27 == c / 27 && i % 9 / 3 == c % 9 / 3;
                if i != c && (same_row || same_col || same_box) {
                    row[n] = i as u8;
                    n += 1;
                }
            }
        }
        Peers(peers)
    }
}

/// xorshift64*: enough to vary the games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() >> 33) as usize % n
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[derive(Clone)]
struct Board {
    val: [u8; 81],
    cand: [u16; 81],
    counts: [u16; 88], // candidates of each empty cell, FILLED for the others and the padding
}

impl Board {
    fn assign(&mut self, peers: &Peers, c: usize, d: u8) -> bool {
        let bit = 1u16 << (d - 1);
        self.val[c] = d;
        self.cand[c] = 0;
        self.counts[c] = FILLED;
        for &p in peers.0[c].iter() {
            let p = p as usize;
            if self.val[p] != 0 || self.cand[p] & bit == 0 {
                continue;
            }
            self.cand[p] &= !bit;
            self.counts[p] = self.cand[p].count_ones() as u16;
            if self.cand[p] == 0 {
                return false;
            }
        }
        true
    }
}

struct Count {
    solutions: usize,
    over_budget: bool,
    found: [[u8; 81]; 2],
    budget: i64,
}

impl Count {
    fn exactly(&self, n: usize) -> bool {
        !self.over_budget && self.solutions == n
    }
}

struct Player {
    peers: Peers,
    rng: Rng,
}

impl Player {
    fn search(&mut self, board: &Board, k: &mut Count, limit: usize) {
        if k.solutions >= limit || k.over_budget {
            return;
        }
        k.budget -= 1;
        if k.budget < 0 {
            k.over_budget = true;
            return;
        }
        let (fewest, best) = simd::fewest(&board.counts);
        if fewest == FILLED {
            k.found[k.solutions] = board.val;
            k.solutions += 1;
            return;
        }
        let mut digits = [0u8; 9];
        let mut n = 0;
        for d in 1..=9u8 {
            if board.cand[best] & (1 << (d - 1)) != 0 {
                digits[n] = d;
                n += 1;
            }
        }
        self.rng.shuffle(&mut digits[..n]);
        for &d in digits[..n].iter() {
            let mut next = board.clone();
            if next.assign(&self.peers, best, d) {
                self.search(&next, k, limit);
            }
            if k.solutions >= limit || k.over_budget {
                return;
            }
        }
    }

    /// Solutions of the grid, counted up to `limit`, within `budget` search nodes.
    fn count(&mut self, grid: &[u8; 81], limit: usize, budget: i64) -> Count {
        let mut k = Count { solutions: 0, over_budget: false, found: [[0; 81]; 2], budget };
        let mut board = Board { val: [0; 81], cand: [0x1FF; 81], counts: [9; 88] };
        for pad in board.counts[81..].iter_mut() {
            *pad = FILLED;
        }
        for (c, &d) in grid.iter().enumerate() {
            if d == 0 {
                continue;
            }
            if board.cand[c] & (1 << (d - 1)) == 0 || !board.assign(&self.peers, c, d) {
                return k; // no solution
            }
        }
        self.search(&board, &mut k, limit);
        k
    }

    /// The count again with other random orders while one runs over its budget: a
    /// backtracking search has a heavy tail, and a restart cuts it.
    fn count_restarting(&mut self, grid: &[u8; 81], limit: usize, budget: i64, tries: usize) -> Count {
        let mut best = self.count(grid, limit, budget);
        for _ in 1..tries {
            if !best.over_budget || best.solutions >= limit {
                break;
            }
            let k = self.count(grid, limit, budget);
            if !k.over_budget || k.solutions > best.solutions {
                best = k;
            }
        }
        best
    }

    fn allowed(&self, grid: &[u8; 81], c: usize, d: u8) -> bool {
        grid[c] == 0 && self.peers.0[c].iter().all(|&p| grid[p as usize] != d)
    }

    fn after(&mut self, grid: &[u8; 81], m: (usize, u8), budget: i64) -> Count {
        let mut next = *grid;
        next[m.0] = m.1;
        self.count(&next, 2, budget)
    }

    fn choose(&mut self, grid: &[u8; 81]) -> String {
        let now = self.count_restarting(grid, 2, 20_000, 30);
        if now.exactly(1) || now.exactly(0) {
            return "!".to_string(); // none cannot happen: the opponent's move would have lost
        }
        // A move that leaves a single solution wins; one needs 17 digits at least.
        let filled = grid.iter().filter(|&&d| d != 0).count();
        if filled >= 16 {
            let mut moves = Vec::new();
            for c in 0..81 {
                for d in 1..=9u8 {
                    if self.allowed(grid, c, d) {
                        moves.push((c, d));
                    }
                }
            }
            self.rng.shuffle(&mut moves);
            for &m in moves.iter() {
                if self.after(grid, m, 3000).exactly(1) {
                    return format!("{}!", text(m));
                }
            }
        }
        let (one, two) = (now.found[0], now.found[1]);
        if now.solutions < 2 {
            // Every count ran out of budget, with one solution at most: play into it.
            let c = (0..81).find(|&c| grid[c] == 0).unwrap_or(0);
            return text((c, one[c]));
        }
        let mut moves: Vec<(usize, u8)> = Vec::new();
        for c in 0..81 {
            if one[c] != two[c] {
                moves.push((c, if self.rng.next() & 1 == 1 { one[c] } else { two[c] }));
            }
        }
        self.rng.shuffle(&mut moves);
        for &m in moves.iter() {
            let k = self.after(grid, m, 20_000);
            if k.exactly(1) {
                return format!("{}!", text(m));
            }
            if k.solutions >= 2 || k.over_budget {
                return text(m);
            }
        }
        text(moves[0])
    }
}

fn text(m: (usize, u8)) -> String {
    let row = (b'A' + (m.0 / 9) as u8) as char;
    let col = (b'a' + (m.0 % 9) as u8) as char;
    format!("{}{}{}", row, col, m.1)
}

fn place(grid: &mut [u8; 81], mv: &str) {
    let b = mv.as_bytes();
    if b.len() >= 3 {
        let c = (b[0] - b'A') as usize * 9 + (b[1] - b'a') as usize;
        grid[c] = b[2] - b'0';
    }
}

fn main() {
    let mut player = Player { peers: Peers::new(), rng: Rng(0x5EED_2024_C0DE_C0DE) };
    let mut grid = [0u8; 81];
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => break,
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "Quit" {
            break;
        }
        if line != "Start" {
            place(&mut grid, line);
        }
        let mv = player.choose(&grid);
        place(&mut grid, &mv);
        writeln!(out, "{}", mv).unwrap();
        out.flush().unwrap();
    }
}
