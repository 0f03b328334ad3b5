//! The time each breadth-first layer of one table's build takes, for studying the builder
//! (docs/records/2026-11-26-block-builder.md): the layers' sizes vary by a factor of a
//! million, and a builder whose sparse layers cost as much as its dense ones shows here.
//!
//! `cargo run --release --example layer_times -- [SIZE] [TILES]`, e.g. `4
//! 8,9,10,11,12,13,14,15` (the default: the 8-tile table of the 4x4 7-8 partition), with
//! the goal's blank in cell 0. Prints the depth, the placements first reached there and the
//! layer's seconds.

use std::time::Instant;

use fifteen::pdb::{build, BuildEvent, PatternSpec};
use fifteen::Shape;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: usize = args.first().map_or(4, |s| s.parse().expect("a board size"));
    let tiles: Vec<u8> = args.get(1).map_or((8..16).collect(), |s| {
        s.split(',').map(|t| t.parse().expect("a tile")).collect()
    });
    let spec = PatternSpec {
        shape: Shape::new(size, size).expect("a board size"),
        blank: 0,
        tiles,
    };
    let start = Instant::now();
    let last = std::sync::Mutex::new(0.0f64);
    let progress = |e: BuildEvent| {
        if let BuildEvent::Layer { depth, placements } = e {
            let now = start.elapsed().as_secs_f64();
            let mut last = last.lock().unwrap();
            println!("{depth:3} {placements:12} {:7.2} s", now - *last);
            *last = now;
        }
    };
    build(&spec, &progress).expect("the table builds");
    println!("total {:.2} s", start.elapsed().as_secs_f64());
}
