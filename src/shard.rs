//! Shards: one of `n` even parts of a batch. `--shard i/n` owns the
//! trials of an experiment whose index is `i - 1` modulo `n`, so `n` array
//! jobs split a sweep evenly (the `cnpi-experiments` crate runs a shard's
//! trials and records which shard a file holds), and [`Shard::block`] is
//! the contiguous split of `cnpic run --inputs`. Here, in the crate
//! without the network, so that the fuzz targets reach it.

use std::str::FromStr;

/// One of `count` shards (`index` 0-based; written 1-based as `i/n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole experiment.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    pub fn owns(self, trial: usize) -> bool {
        trial % self.count == self.index
    }

    /// This shard's block of `total` items in order (`cnpic run --inputs`):
    /// the `n` blocks are as even as can be and, concatenated in shard
    /// order, are `0..total`. Computed in 128 bits, so it holds for every
    /// `total`, `i` and `n` (issue 47: `total * i` overflowed 64).
    pub fn block(self, total: usize) -> std::ops::Range<usize> {
        let at = |k: usize| {
            let at = total as u128 * k as u128 / self.count.max(1) as u128;
            // At most `total`, as `k <= count`.
            usize::try_from(at).unwrap_or(total).min(total)
        };
        at(self.index)..at(self.index + 1)
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let invalid =
            || format!("`{text}` is not a shard: write `i/n` with 1 ≤ i ≤ n, such as `2/8`");
        let (i, n) = text.split_once('/').ok_or_else(invalid)?;
        let (i, n): (usize, usize) = (
            i.trim().parse().map_err(|_| invalid())?,
            n.trim().parse().map_err(|_| invalid())?,
        );
        if i == 0 || i > n {
            return Err(invalid());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_split_the_trials_evenly() {
        let shard: Shard = "2/3".parse().expect("a shard");
        assert_eq!(shard, Shard { index: 1, count: 3 });
        assert_eq!(shard.to_string(), "2/3");
        let owned: Vec<usize> = (0..7).filter(|&i| shard.owns(i)).collect();
        assert_eq!(owned, [1, 4]);
        assert_eq!(shard.block(7), 2..4);
        let blocks: Vec<_> = (0..3)
            .map(|index| Shard { index, count: 3 }.block(7))
            .collect();
        assert_eq!(blocks, [0..2, 2..4, 4..7]);
        assert_eq!(Shard { index: 1, count: 4 }.block(2), 0..1);
        for bad in [
            "0/3",
            "4/3",
            "3",
            "a/b",
            "1/0",
            "18446744073709551616/2",
            "-1/3",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    /// Issue 47's reproducers: `--shard` numbers near 2^63 and 2^64 on a
    /// three-line file.
    #[test]
    fn huge_shard_numbers_split_without_overflow() {
        let shard: Shard = "6148914691236517206/9223372036854775808"
            .parse()
            .expect("a shard");
        // 3 * 6148914691236517205 / 2^63 is just under 2, the next just over.
        assert_eq!(shard.block(3), 1..2);
        let last: Shard = "9223372036854775808/9223372036854775808"
            .parse()
            .expect("a shard");
        assert_eq!(last.block(3), 2..3, "the last shard holds the last line");
        let max = format!("{0}/{0}", usize::MAX);
        assert_eq!(
            max.parse::<Shard>().expect("a shard").block(usize::MAX),
            usize::MAX - 1..usize::MAX
        );
    }

    proptest::proptest! {
        /// The shards' blocks, in order, are the file's lines, each once:
        /// every shard of a small count; of any count, the first, the last
        /// and a random one, each meeting its neighbours.
        #[test]
        fn the_union_of_the_shards_is_every_line_once(
            total in proptest::prop_oneof![0usize..200, proptest::num::usize::ANY],
            count in proptest::prop_oneof![1usize..40, 1usize..=usize::MAX],
            pick in proptest::num::usize::ANY,
        ) {
            let block = |index: usize| Shard { index, count }.block(total);
            proptest::prop_assert_eq!(block(0).start, 0);
            proptest::prop_assert_eq!(block(count - 1).end, total);
            let picked = pick % count;
            let mut indices = vec![picked];
            if count < 40 {
                indices = (0..count).collect();
            }
            for index in indices {
                let here = block(index);
                proptest::prop_assert!(here.start <= here.end && here.end <= total);
                if index + 1 < count {
                    proptest::prop_assert_eq!(here.end, block(index + 1).start);
                }
            }
        }
    }
}
