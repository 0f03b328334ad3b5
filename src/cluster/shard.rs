//! Shards: a deterministic slice `K/N` of a batch, so that N machines (the tasks of a Slurm
//! job array, the pods of a Kubernetes indexed job) can share a batch with no coordination
//! at all. Each task reads the whole input and keeps its own slice; nothing is exchanged.
//!
//! **Numbering.** Shards count from 1: `1/4` to `4/4`, as `split -n K/N` counts its chunks
//! and as job arrays are usually written (`sbatch --array=1-4`). An array numbered from 0,
//! or a Kubernetes `JOB_COMPLETION_INDEX` (always from 0), passes `index + 1`.
//!
//! **Round robin.** Item `i` of the batch (counting from 1, in input order) belongs to
//! shard `((i - 1) mod N) + 1`. Round robin rather than contiguous blocks because:
//! - it needs no count of the items beforehand, so a shard can start on a stream (a pipe
//!   from `fifteen random`) and knows its slice without reading the input twice;
//! - files are often ordered by difficulty or by source (Korf's 100 instances vary by a
//!   factor of 10,000 in nodes; generated sets are grouped by walk length), and blocks would
//!   give one task all the hard ones, while round robin spreads every region of the input
//!   over all the tasks;
//! - which shard holds item `i`, and where in that shard's output it stands, are one
//!   division: a merge restores input order by taking the shards' outputs in turn
//!   ([`crate::cluster::merge`]).

use std::fmt;

/// The most shards a batch may be split into: far more tasks than any job array allows
/// (Slurm's `MaxArraySize` is at most 4,000,001), few enough that a typo such as `1/10000000000`
/// is caught.
pub const MAX_SHARDS: u64 = 1 << 32;

/// One slice of a batch: shard `index` of `count`, both counted from 1.
///
/// # Examples
/// ```
/// use fifteen::cluster::shard::Shard;
///
/// let s: Shard = "2/3".parse().unwrap();
/// // Items 2, 5, 8, ... of the input (counted from 1) are this shard's.
/// let mine: Vec<u64> = (1..=9).filter(|&i| s.contains(i)).collect();
/// assert_eq!(mine, [2, 5, 8]);
/// assert_eq!(s.items_of(9), 3);
/// assert_eq!(s.to_string(), "2/3");
/// assert!("0/3".parse::<Shard>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// A `--shard` value that is not `K/N` with `1 <= K <= N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not two whole numbers separated by `/`.
    #[error("'{0}' is not K/N: give the shard number and the shard count, such as 2/8 (shards count from 1)")]
    Syntax(String),
    /// `K` is 0 or larger than `N`.
    #[error("shard {index} of {count} does not exist: K goes from 1 to {count} (shards count from 1; an array counted from 0 passes its index + 1)")]
    OutOfRange {
        /// `K` as given.
        index: u64,
        /// `N` as given.
        count: u64,
    },
    /// `N` is 0 or more than [`MAX_SHARDS`].
    #[error("{0} shards: give N from 1 to {MAX_SHARDS}")]
    BadCount(u64),
}

impl Shard {
    /// The whole batch as one shard, `1/1`.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, both counted from 1.
    ///
    /// # Errors
    /// `count` outside `1..=MAX_SHARDS`, or `index` outside `1..=count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 || count > MAX_SHARDS {
            return Err(ShardError::BadCount(count));
        }
        if index == 0 || index > count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// `K`, from 1 to [`Shard::count`].
    pub fn index(self) -> u64 {
        self.index
    }

    /// `N`, how many shards the batch is split into.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether item `item` of the batch (counted from 1, in input order) is this shard's.
    pub fn contains(self, item: u64) -> bool {
        item >= 1 && (item - 1) % self.count == self.index - 1
    }

    /// How many of the items `1..=total` are this shard's.
    pub fn items_of(self, total: u64) -> u64 {
        if total < self.index {
            0
        } else {
            (total - self.index) / self.count + 1
        }
    }

    /// The item (counted from 1) that stands `position`-th (from 0) in this shard's slice.
    pub fn item_at(self, position: u64) -> u64 {
        position * self.count + self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    /// `K/N`, spaces around the numbers allowed.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.chars().take(30).collect());
        let (k, n) = text.split_once('/').ok_or_else(syntax)?;
        let number = |t: &str| {
            let t = t.trim();
            // `parse` takes a leading `+`; a shard number is plain digits.
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // Digits too many for u64 are surely beyond the limits: report them as such.
            Ok(t.parse::<u64>().unwrap_or(u64::MAX))
        };
        let (k, n) = (number(k)?, number(n)?);
        Shard::new(k, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_in_exactly_one_shard_and_counts_agree() {
        for n in 1..=7u64 {
            let shards: Vec<Shard> = (1..=n).map(|k| Shard::new(k, n).unwrap()).collect();
            for item in 1..=50u64 {
                let owners = shards.iter().filter(|s| s.contains(item)).count();
                assert_eq!(owners, 1, "item {item} of {n} shards");
            }
            for total in 0..=50u64 {
                let sum: u64 = shards.iter().map(|s| s.items_of(total)).sum();
                assert_eq!(sum, total);
                for s in &shards {
                    let mine = (1..=total).filter(|&i| s.contains(i)).count() as u64;
                    assert_eq!(s.items_of(total), mine, "{s} of {total}");
                    let listed: Vec<u64> = (0..mine).map(|p| s.item_at(p)).collect();
                    let expected: Vec<u64> = (1..=total).filter(|&i| s.contains(i)).collect();
                    assert_eq!(listed, expected);
                }
            }
        }
        assert!(!Shard::WHOLE.contains(0));
    }

    #[test]
    fn bad_values_are_refused_with_the_range() {
        assert_eq!("3/8".parse(), Ok(Shard::new(3, 8).unwrap()));
        assert_eq!(" 8 / 8 ".parse::<Shard>().unwrap().to_string(), "8/8");
        for bad in [
            "", "3", "3/", "/8", "a/8", "3/b", "-1/8", "+1/8", "1.5/8", "1/2/3",
        ] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(matches!(e, ShardError::Syntax(_)), "{bad}: {e}");
        }
        let e = "0/8".parse::<Shard>().unwrap_err();
        assert_eq!(e, ShardError::OutOfRange { index: 0, count: 8 });
        assert!(e.to_string().contains("from 1 to 8"), "{e}");
        assert!("9/8".parse::<Shard>().is_err());
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::BadCount(0)));
        assert_eq!(
            "1/99999999999999999999999".parse::<Shard>(),
            Err(ShardError::BadCount(u64::MAX))
        );
        assert!(Shard::new(1, MAX_SHARDS).is_ok());
        assert!(Shard::new(1, MAX_SHARDS + 1).is_err());
    }
}
