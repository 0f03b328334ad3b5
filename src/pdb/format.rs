//! The table file format: a fixed-size header (magic, byte order, version, what the table
//! is for, a checksum), zero padding up to a page, then the payload. Also the checks of a
//! header read back, which never panic whatever the bytes.

use std::path::Path;

use crate::board::Shape;
use crate::error::TableError;

use super::partition::{check_tiles, too_many_placements, BadTiles, PatternSpec};

/// Bumped whenever the file layout or the meaning of an entry changes. Version 2: the
/// checksum covers the header's fields as well as the payload.
pub const TABLE_FORMAT_VERSION: u32 = 2;
const MAGIC: [u8; 8] = *b"15PDB\0\r\n";
const ENDIAN_CHECK: u32 = 0x0102_0304;
/// The payload starts at this offset so that it is page-aligned when mapped.
pub const PAYLOAD_OFFSET: u64 = 4096;
/// Entry encoding: four bits, excess over Manhattan distance divided by two.
pub const ENCODING_NIBBLE_EXCESS: u8 = 1;

/// The fixed-size header at the start of every table file.
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub struct Header {
    /// Marks the file as a `fifteen` table, whatever its name.
    pub magic: [u8; 8],
    /// `0x01020304` as the writer stored it: a reader with the other byte order sees
    /// another number and refuses the file.
    pub endian_check: u32,
    /// The [`TABLE_FORMAT_VERSION`] the file was written with.
    pub version: u32,
    /// The board's rows.
    pub rows: u8,
    /// The board's columns.
    pub cols: u8,
    /// The goal's blank cell: labels are goal cells, so this fixes the goal.
    pub blank: u8,
    /// How entries are stored: [`ENCODING_NIBBLE_EXCESS`].
    pub encoding: u8,
    /// How many tiles the pattern has.
    pub tile_count: u8,
    /// The pattern's labels; the first `tile_count` are used, the rest zero.
    pub tiles: [u8; 32],
    /// One entry per placement of the pattern's tiles.
    pub entries: u64,
    /// Where the payload starts: [`PAYLOAD_OFFSET`].
    pub payload_offset: u64,
    /// The payload's bytes: two entries a byte, rounded up.
    pub payload_len: u64,
    /// xxh3-64 of the payload, seeded with the xxh3-64 of the other header fields (see
    /// [`Header::sum`]), so that no bit of either can change unnoticed.
    pub checksum: u64,
    /// Entries that did not fit four bits and were lowered to 15 (still admissible).
    pub clamped: u64,
}

impl Header {
    /// The checksum this header and payload should carry: the payload's xxh3-64, seeded
    /// with the xxh3-64 of the encoded header whose `checksum` is zero.
    pub fn sum(&self, payload: &[u8]) -> u64 {
        let mut fields = self.clone();
        fields.checksum = 0;
        let bytes = bincode::encode_to_vec(&fields, bincode_config())
            .expect("a fixed-size header always encodes");
        xxhash_rust::xxh3::xxh3_64_with_seed(payload, xxhash_rust::xxh3::xxh3_64(&bytes))
    }

    /// The file's first `PAYLOAD_OFFSET` bytes: the encoded header, then zeros.
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut head = bincode::encode_to_vec(self, bincode_config()).expect("header encodes");
        head.resize(PAYLOAD_OFFSET as usize, 0);
        head
    }
}

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
}

impl PatternSpec {
    pub(super) fn header(&self, payload: &[u8], clamped: u64) -> Header {
        let mut tiles = [0u8; 32];
        tiles[..self.tiles.len()].copy_from_slice(&self.tiles);
        let mut h = Header {
            magic: MAGIC,
            endian_check: ENDIAN_CHECK,
            version: TABLE_FORMAT_VERSION,
            rows: self.shape.rows,
            cols: self.shape.cols,
            blank: self.blank,
            encoding: ENCODING_NIBBLE_EXCESS,
            tile_count: self.tiles.len() as u8,
            tiles,
            entries: self.entries(),
            payload_offset: PAYLOAD_OFFSET,
            payload_len: payload.len() as u64,
            checksum: 0,
            clamped,
        };
        h.checksum = h.sum(payload);
        h
    }
}

/// Why a header is refused, before the file's path and rebuild command are attached.
pub(super) enum Fault {
    /// The file is damaged: not what any build of this version writes.
    Corrupt(String),
    /// A sound file, but for another version, board, goal or pattern.
    Mismatch(String),
    /// Not a table at all: it does not start as every table does.
    NotOurs,
    /// Not a file at all but a directory, a named pipe, a device or a socket (the kind,
    /// in words): nothing to rebuild, and a rebuild's rename cannot replace a directory.
    NotAFile(&'static str),
}

/// Why a file that does not start as a table is refused.
const NOT_OURS: &str = "not a table (it does not start as every table fifteen writes does)";

impl Fault {
    /// The error for a file whose name is no table's: nothing can rebuild it.
    pub(super) fn into_foreign(self, path: &Path) -> TableError {
        let reason = match self {
            Fault::Corrupt(reason) | Fault::Mismatch(reason) => reason,
            Fault::NotOurs => NOT_OURS.into(),
            Fault::NotAFile(kind) => format!("not a table file but {kind}"),
        };
        TableError::Foreign {
            path: path.to_path_buf(),
            reason,
        }
    }

    pub(super) fn into_error(self, path: &Path, rebuild: String) -> TableError {
        let path = path.to_path_buf();
        match self {
            Fault::Corrupt(reason) => TableError::Corrupt {
                path,
                reason,
                rebuild,
            },
            Fault::Mismatch(reason) => TableError::Mismatch {
                path,
                reason,
                rebuild,
            },
            Fault::NotOurs => TableError::NotATable { path },
            Fault::NotAFile(kind) => TableError::NotAFile { path, kind },
        }
    }
}

/// Decodes the header from a file's first bytes (`PAYLOAD_OFFSET` of them, or all of a
/// shorter file) and checks what it can on its own: magic, byte order, version, that the
/// zero padding is zero. Pure, so that it can be fuzzed on arbitrary bytes.
pub(super) fn decode_header(head: &[u8]) -> Result<Header, Fault> {
    // The first bytes a table starts with ("15PDB"; the magic's line ends may be mangled
    // by a text transfer, which is damage to a table). A file that starts otherwise, and
    // whose byte-order mark is not where a table's is either (a bit flipped in the magic
    // is damage), is no damaged table but someone's file, not to be rebuilt over.
    let lead = &MAGIC[..5];
    let start = &head[..head.len().min(lead.len())];
    let endian_mark = head.get(8..12) == Some(&ENDIAN_CHECK.to_le_bytes()[..]);
    if !head.is_empty() && start != &lead[..start.len()] && !endian_mark {
        return Err(Fault::NotOurs);
    }
    if head.len() < PAYLOAD_OFFSET as usize {
        return Err(Fault::Corrupt(format!(
            "only {} bytes, shorter than the header",
            head.len()
        )));
    }
    let head = &head[..PAYLOAD_OFFSET as usize];
    let (h, used): (Header, usize) = bincode::decode_from_slice(head, bincode_config())
        .map_err(|e| Fault::Corrupt(format!("unreadable header ({e})")))?;
    if h.magic != MAGIC {
        return Err(Fault::Corrupt("not a fifteen table (bad magic)".into()));
    }
    if h.endian_check != ENDIAN_CHECK {
        return Err(Fault::Corrupt("written with another byte order".into()));
    }
    if h.version != TABLE_FORMAT_VERSION {
        return Err(Fault::Mismatch(format!(
            "format version {} (this program reads {})",
            h.version, TABLE_FORMAT_VERSION
        )));
    }
    if h.encoding != ENCODING_NIBBLE_EXCESS {
        return Err(Fault::Mismatch(format!(
            "unknown entry encoding {}",
            h.encoding
        )));
    }
    // A flipped bit in the unused tile slots or the padding changes no answer, but it is
    // damage all the same, and the only sign of it.
    let unused = h.tiles.get(h.tile_count as usize..).unwrap_or(&[]);
    if unused.iter().any(|&b| b != 0) || head[used..].iter().any(|&b| b != 0) {
        return Err(Fault::Corrupt(
            "nonzero bytes in the header's padding".into(),
        ));
    }
    Ok(h)
}

/// Checks a decoded header against the table wanted and the file's length.
pub(super) fn check_header(h: &Header, file_len: u64, spec: &PatternSpec) -> Result<(), Fault> {
    let tiles = &h.tiles[..(h.tile_count as usize).min(32)];
    if (h.rows, h.cols) != (spec.shape.rows, spec.shape.cols) {
        return Err(Fault::Mismatch(format!(
            "built for {}x{} boards, {} needed",
            h.rows, h.cols, spec.shape
        )));
    }
    if h.blank != spec.blank {
        return Err(Fault::Mismatch(format!(
            "built for the goal with the blank in cell {}, cell {} needed",
            h.blank, spec.blank
        )));
    }
    if tiles != spec.tiles.as_slice() {
        return Err(Fault::Mismatch(format!(
            "built for pattern {:?}, {:?} needed",
            tiles, spec.tiles
        )));
    }
    let entries = spec.entries();
    if h.entries != entries || h.payload_len != entries.div_ceil(2) {
        return Err(Fault::Corrupt(format!(
            "header says {} entries in {} bytes, {} expected",
            h.entries,
            h.payload_len,
            entries.div_ceil(2)
        )));
    }
    if h.payload_offset != PAYLOAD_OFFSET {
        return Err(Fault::Corrupt(format!(
            "payload offset {}",
            h.payload_offset
        )));
    }
    if h.clamped > h.entries {
        return Err(Fault::Corrupt(format!(
            "{} entries clamped out of {}",
            h.clamped, h.entries
        )));
    }
    if file_len != PAYLOAD_OFFSET + h.payload_len {
        return Err(Fault::Corrupt(format!(
            "file is {} bytes, {} expected (truncated or padded)",
            file_len,
            PAYLOAD_OFFSET + h.payload_len
        )));
    }
    Ok(())
}

/// The table a header describes, if it describes one this program could build: a board
/// shape, a blank cell on it, and distinct tiles on it other than the blank.
pub(super) fn spec_of_header(h: &Header) -> Result<PatternSpec, Fault> {
    let shape = Shape::new(h.rows as usize, h.cols as usize)
        .ok_or_else(|| Fault::Corrupt(format!("bad shape {}x{}", h.rows, h.cols)))?;
    let k = h.tile_count as usize;
    // A count beyond the header's tile slots is checked as no tiles: a bad count too.
    let tiles = h.tiles.get(..k).unwrap_or(&[]);
    let found = check_tiles(shape, h.blank, tiles);
    match found {
        Err(BadTiles::Blank) => {
            return Err(Fault::Corrupt(format!(
                "blank cell {} is not on a {shape} board",
                h.blank
            )))
        }
        Err(BadTiles::Count) => {
            return Err(Fault::Corrupt(format!(
                "bad tile count {} for a {shape} board",
                h.tile_count
            )))
        }
        Err(BadTiles::Tiles) | Ok(()) => {}
    }
    // As `build` refuses.
    if too_many_placements(shape.cells(), k) {
        return Err(Fault::Corrupt(format!(
            "{k} tiles on a {shape} board make too large a table"
        )));
    }
    if found.is_err() {
        return Err(Fault::Corrupt(format!(
            "bad pattern {tiles:?} for a {shape} board with the blank in cell {}",
            h.blank
        )));
    }
    let tiles = tiles.to_vec();
    Ok(PatternSpec {
        shape,
        blank: h.blank,
        tiles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why `spec_of_header` refuses `h`.
    fn refusal(h: &Header) -> String {
        match spec_of_header(h) {
            Ok(spec) => panic!("accepted {spec:?}"),
            Err(Fault::Corrupt(reason)) => reason,
            Err(Fault::Mismatch(reason)) => panic!("a mismatch, not damage: {reason}"),
            Err(Fault::NotOurs) => panic!("not a table"),
            Err(Fault::NotAFile(kind)) => panic!("not a file: {kind}"),
        }
    }

    #[test]
    fn a_header_describes_only_a_table_this_program_builds() {
        let spec = PatternSpec {
            shape: Shape::new(4, 4).unwrap(),
            blank: 0,
            tiles: vec![1, 2, 3],
        };
        let good = spec.header(&[], 0);
        assert_eq!(spec_of_header(&good).ok(), Some(spec));
        let with = |change: &dyn Fn(&mut Header)| {
            let mut h = good.clone();
            change(&mut h);
            refusal(&h)
        };
        assert_eq!(with(&|h| h.rows = 1), "bad shape 1x4");
        assert_eq!(
            with(&|h| h.blank = 16),
            "blank cell 16 is not on a 4x4 board"
        );
        assert_eq!(
            with(&|h| h.tile_count = 0),
            "bad tile count 0 for a 4x4 board"
        );
        // More tiles than the header has slots for, on a board with more cells than that.
        assert_eq!(
            with(&|h| (h.rows, h.cols, h.tile_count) = (6, 6, 33)),
            "bad tile count 33 for a 6x6 board"
        );
        assert_eq!(
            with(&|h| h.tiles[1] = 1),
            "bad pattern [1, 1, 3] for a 4x4 board with the blank in cell 0"
        );
        // Too large is said before the repeated zeros of the unused slots.
        assert_eq!(
            with(&|h| h.tile_count = 15),
            "15 tiles on a 4x4 board make too large a table"
        );
    }
}
