//! `--shard i/n` on any text and any batch size: parsing never panics,
//! a shard it accepts prints back as written (spaces aside), and its
//! block of `total` lines lies inside the batch, meets its neighbours'
//! blocks end to start and is as even as can be (its length differs from
//! `total / n` by less than one), for every `usize`.

#![no_main]

use cnpi::shard::Shard;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

fn case(u: &mut Unstructured) -> Result<()> {
    let total: usize = u.arbitrary()?;
    let text: &str = u.arbitrary()?;
    let Ok(shard) = text.parse::<Shard>() else {
        return Ok(());
    };
    assert!(shard.index < shard.count, "{text}: {shard:?}");
    let spaceless: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let shown = shard.to_string();
    assert_eq!(shown.parse::<Shard>(), Ok(shard), "{text}");
    if !spaceless.contains('+') && !spaceless.split('/').any(|p| p.starts_with('0')) {
        assert_eq!(shown, spaceless, "{text}");
    }
    let block = |index| Shard { index, ..shard }.block(total);
    let here = block(shard.index);
    assert!(here.start <= here.end && here.end <= total, "{text} of {total}: {here:?}");
    if shard.index == 0 {
        assert_eq!(here.start, 0);
    } else {
        assert_eq!(block(shard.index - 1).end, here.start);
    }
    if shard.index + 1 == shard.count {
        assert_eq!(here.end, total);
    } else {
        assert_eq!(here.end, block(shard.index + 1).start);
    }
    let even = total as u128 / shard.count as u128;
    let length = (here.end - here.start) as u128;
    assert!(length == even || length == even + 1, "{text} of {total}: {here:?}");
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = case(&mut Unstructured::new(data));
});
