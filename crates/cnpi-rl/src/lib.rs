//! cnpi-rl: learning the Combinatory Neural Programmer-Interpreter by
//! reinforcement (sections 3.3 and 4.2 of Xiao, Liao, Yuan, ICLR 2018).
//!
//! Stage 1 learns the core and the basic combinators `seq`, `cond` and
//! `linrec` without any execution trace: the core runs each combinator on
//! auxiliary tasks of the `array` environment ([`tasks`]), sampling every
//! call from its softmax ([`episode`]), and is trained by REINFORCE with a
//! supervised return-flag term on rewarded episodes ([`policy`]), under a
//! sampling scheme and a curriculum ([`schedule`], [`stage1`]). What is
//! learned is written as a core file that `cnpic verify-core` checks
//! ([`core_file`]).

pub mod baseline;
pub mod core_file;
pub mod episode;
pub mod library;
pub mod policy;
pub mod schedule;
pub mod stage1;
pub mod stage2;
pub mod tasks;
