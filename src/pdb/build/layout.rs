//! The search's index, grouped by the cells the pattern's tiles cover.
//!
//! A placement is a block (the set of covered cells) and an order (which tile stands on
//! which of those cells). Everything the search needs about the blank depends on the block
//! alone: the free cells fall into the same regions for every order. And a tile's move
//! changes the block in a fixed way and the order by a fixed rearrangement, the same for
//! all the block's orders. So the layout holds, once per block, its regions and the moves
//! that lead into it, and once per table, how each rearrangement renumbers the orders.

use rayon::prelude::*;

use crate::rank::Ranker;

use super::grid::Grid;

/// Orders are listed in a table (and rearrangements tabled) up to this many of them, 9
/// tiles: 3.3 MB of orders, at most 1.5 MB per rearrangement.
const MOST_TABLED: u64 = 1 << 19;

/// A move of one tile, seen from the block it leads to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    /// The block it comes from.
    pub(super) src: u32,
    /// The blank's region in `src` that the tile moves into (its index there).
    pub(super) need: u8,
    /// The blank's region here that holds the cell the tile left.
    pub(super) give: u8,
    /// Where the moving tile stands among the covered cells, counted from the lowest:
    /// before the move (in `src`) and after it (here). Equal for a move along a row, and
    /// for one along a column that passes no other tile: the order is then unchanged.
    pub(super) a: u8,
    pub(super) b: u8,
}

pub(super) struct Layout {
    k: usize,
    /// `binom[c][j]` = C(c, j), for the blocks' colex ranks.
    binom: Vec<[u64; 33]>,
    /// Each block's covered cells, in the order of their masks as integers (colex).
    pub(super) masks: Vec<u64>,
    /// Each block's blank regions, lowest cell first: `regions[region_at[b]..region_at[b + 1]]`.
    regions: Vec<u64>,
    region_at: Vec<u32>,
    /// The moves into each block: `moves[move_at[b]..move_at[b + 1]]`.
    moves: Vec<Move>,
    move_at: Vec<u32>,
    /// Ranks orders: `order[i]` is the covered cell, counted from the lowest, of tile `i`.
    pub(super) orders: Ranker,
    /// Every order, `k` bytes each, when tabled (empty otherwise).
    order_table: Vec<u8>,
    /// `maps[a * k + b][q]`: the order `q` becomes when the tile at `a` moves to `b`; empty
    /// where no move needs it or when the orders are too many to table.
    maps: Vec<Vec<u32>>,
    /// The most regions any block has: how wide a set of regions must be.
    pub(super) most_regions: usize,
}

impl Layout {
    /// The layout of `k` tiles on `grid`; `tabled` false computes every order and
    /// rearrangement when needed (what a pattern of 10 tiles or more always does), so that
    /// the tests run that path on small patterns too.
    pub(super) fn new(grid: &Grid, k: usize, tabled: bool) -> Layout {
        let n = grid.all.count_ones() as usize;
        let mut binom = vec![[0u64; 33]; n + 1];
        for c in 0..=n {
            binom[c][0] = 1;
            for j in 1..=c.min(32) {
                binom[c][j] = binom[c - 1][j - 1] + if j < c { binom[c - 1][j] } else { 0 };
            }
        }
        let masks: Vec<u64> = grid.sets(k).collect();
        debug_assert_eq!(masks.len() as u64, binom[n][k]);
        let mut regions = Vec::new();
        let mut region_at = vec![0u32];
        let mut most_regions = 0;
        for &m in &masks {
            let before = regions.len();
            regions.extend(grid.regions(grid.all & !m));
            most_regions = most_regions.max(regions.len() - before);
            region_at.push(regions.len() as u32);
        }
        let orders = Ranker::new(k, k);
        let tabled = tabled && orders.count() <= MOST_TABLED;
        let mut layout = Layout {
            k,
            binom,
            masks,
            regions,
            region_at,
            moves: Vec::new(),
            move_at: Vec::new(),
            orders,
            order_table: Vec::new(),
            maps: vec![Vec::new(); k * k],
            most_regions,
        };
        let per_block: Vec<Vec<Move>> = (0..layout.masks.len())
            .into_par_iter()
            .map(|b| layout.moves_into(grid, b))
            .collect();
        layout.move_at = Vec::with_capacity(per_block.len() + 1);
        layout.move_at.push(0);
        for v in per_block {
            layout.moves.extend_from_slice(&v);
            layout.move_at.push(layout.moves.len() as u32);
        }
        if tabled {
            let count = layout.orders.count() as usize;
            let mut table = vec![0u8; count * k];
            table.par_chunks_mut(k).enumerate().for_each(|(q, o)| {
                layout.orders.unrank(q as u64, o);
            });
            layout.order_table = table;
            let mut needed = vec![false; k * k];
            for mv in &layout.moves {
                if mv.a != mv.b {
                    needed[mv.a as usize * k + mv.b as usize] = true;
                }
            }
            let maps: Vec<Vec<u32>> = (0..k * k)
                .into_par_iter()
                .map(|ab| {
                    if !needed[ab] {
                        return Vec::new();
                    }
                    let mut o = vec![0u8; k];
                    (0..count)
                        .map(|q| {
                            o.copy_from_slice(layout.order(q, &mut [0; 32][..k]));
                            rearrange(&mut o, ab / k, ab % k);
                            layout.orders.rank(&o) as u32
                        })
                        .collect()
                })
                .collect();
            layout.maps = maps;
        }
        layout
    }

    /// The block's index: its mask's colex rank.
    pub(super) fn block_of(&self, mask: u64) -> usize {
        let mut r = 0;
        let mut rest = mask;
        let mut j = 1;
        while rest != 0 {
            r += self.binom[rest.trailing_zeros() as usize][j];
            rest &= rest - 1;
            j += 1;
        }
        r as usize
    }

    /// The block's blank regions, lowest cell first.
    #[inline(always)]
    pub(super) fn regions(&self, b: usize) -> &[u64] {
        &self.regions[self.region_at[b] as usize..self.region_at[b + 1] as usize]
    }

    /// The index of the block's region holding the free cell `cell`.
    pub(super) fn region_of(&self, b: usize, cell: usize) -> u8 {
        let i = self.regions(b).iter().position(|r| r >> cell & 1 == 1);
        i.expect("a free cell is in one of the block's regions") as u8
    }

    /// The moves into the block.
    #[inline(always)]
    pub(super) fn moves(&self, b: usize) -> &[Move] {
        &self.moves[self.move_at[b] as usize..self.move_at[b + 1] as usize]
    }

    /// Order `q`, from the table or computed into `scratch`.
    #[inline(always)]
    pub(super) fn order<'a>(&'a self, q: usize, scratch: &'a mut [u8]) -> &'a [u8] {
        if self.order_table.is_empty() {
            self.orders.unrank(q as u64, scratch);
            scratch
        } else {
            &self.order_table[q * self.k..(q + 1) * self.k]
        }
    }

    /// The table of what order `q` becomes when the tile at `a` moves to `b` (`a != b`),
    /// when tabled.
    #[inline(always)]
    pub(super) fn map(&self, a: u8, b: u8) -> Option<&[u32]> {
        let m = &self.maps[a as usize * self.k + b as usize];
        (!m.is_empty()).then_some(&m[..])
    }

    /// What order `q` becomes when the tile at `a` moves to `b`, computed.
    pub(super) fn rearranged(&self, q: usize, a: u8, b: u8) -> usize {
        let mut o = [0u8; 32];
        self.orders.unrank(q as u64, &mut o[..self.k]);
        rearrange(&mut o[..self.k], a as usize, b as usize);
        self.orders.rank(&o[..self.k]) as usize
    }

    /// Every move of a tile that ends in block `b`: a tile on covered cell `d` came from a
    /// free neighbour `c`, where the blank's region held `d`.
    fn moves_into(&self, grid: &Grid, b: usize) -> Vec<Move> {
        let mask = self.masks[b];
        let mut out = Vec::new();
        let mut tiles = mask;
        while tiles != 0 {
            let d = tiles.trailing_zeros() as usize;
            tiles &= tiles - 1;
            let mut from = grid.dilate(1 << d) & !mask;
            while from != 0 {
                let c = from.trailing_zeros() as usize;
                from &= from - 1;
                let src_mask = mask ^ (1 << d) ^ (1 << c);
                let src = self.block_of(src_mask);
                out.push(Move {
                    src: src as u32,
                    need: self.region_of(src, d),
                    give: self.region_of(b, c),
                    a: (src_mask & ((1 << c) - 1)).count_ones() as u8,
                    b: (mask & ((1 << d) - 1)).count_ones() as u8,
                });
            }
        }
        out
    }
}

/// The tile at covered cell `a` moves to `b`; the tiles between shift one place towards `a`.
fn rearrange(order: &mut [u8], a: usize, b: usize) {
    let (a, b) = (a as u8, b as u8);
    for o in order.iter_mut() {
        *o = if *o == a {
            b
        } else if a < b && *o > a && *o <= b {
            *o - 1
        } else if b < a && *o >= b && *o < a {
            *o + 1
        } else {
            *o
        };
    }
}
