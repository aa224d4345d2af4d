//! cnpi-rl: learning the Combinatory Neural Programmer-Interpreter by
//! reinforcement (sections 3.3 and 4.2 of Xiao, Liao, Yuan, ICLR 2018).
//!
//! Stage 1 learns the core and the basic combinators `seq`, `cond` and
//! `linrec` without any execution trace: the core runs each combinator on
//! auxiliary tasks of the `array` environment ([`tasks`]), sampling every
//! call from its softmax ([`episode`]), and is trained by REINFORCE with a
//! supervised return-flag term on rewarded episodes and an entropy bonus
//! ([`policy`]), against a reinforcement baseline ([`baseline`]), under a
//! sampling scheme and a curriculum ([`schedule`], [`stage1`]); the same
//! learner on `n` versions of the tasks is the RNPI baseline of Table 5.
//! What is learned is written as a core file that `cnpic verify-core`
//! checks ([`core_file`]). Stage 2 ([`stage2`], on the small program memory
//! of [`library`]) learns a detector and the STEP and SORT appliers on a
//! fixed learned core by the applier policy gradient ([`applier`]) and
//! prints the sort as `.cnpi` source.
//!
//! The sweeps over seeds, settings and shards are experiments of crate
//! `cnpi-experiments` (`cnpic experiment rl-core`, `rl-rnpi`, `rl-stage2`).

pub mod applier;
pub mod baseline;
pub mod core_file;
pub mod episode;
pub mod library;
pub mod policy;
pub mod schedule;
pub mod sketch;
pub mod stage1;
pub mod stage2;
pub mod tasks;
