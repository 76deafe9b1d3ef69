//! Stable sorting through one copy of the standard library's sort (issue 15: a tool pays on disk
//! only for what it uses).
//!
//! `slice::sort_by` is generic over the element and the comparison: every call site with its own
//! element type or closure gets its own copy of the whole merge sort (about 7 KiB each in a
//! release build), and the faces and the runtime sort in a dozen places. [`sort_by`] sorts the
//! positions `0..len` instead, through one comparison signature (`&dyn Fn(usize, usize)`), so the
//! sort itself exists once; only the few lines that apply the order are made per element type.
//! The result is exactly `slice::sort_by`'s: stable, equal elements keep their order.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `items.sort_by(compare)` would.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let order = {
        let items = &*items;
        sorted_positions(items.len(), &|a, b| compare(&items[a], &items[b]))
    };
    apply(items, order);
}

/// Sorts `items` stably by the key `key` gives, as `items.sort_by_key(key)` would.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably by the key `key` gives, computed once per element, as
/// `items.sort_by_cached_key(key)` would.
pub fn sort_by_cached_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    let keys: Vec<K> = items.iter().map(key).collect();
    apply(
        items,
        sorted_positions(keys.len(), &|a, b| keys[a].cmp(&keys[b])),
    );
}

/// Sorts `items` stably in their own order, as `items.sort()` would.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions `0..len` in the order `compare` puts them, equal ones in their own order. Not
/// generic: this is the one instantiation of the standard library's stable sort.
fn sorted_positions(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Rearranges `items` so that position `k` holds what was at `order[k]`, in place, one swap per
/// element moved: each cycle of the permutation is followed from its start, and a position is
/// marked done (`order[k] = k`) once it holds its element.
fn apply<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The same order as the standard library's stable sort, ties included: the pairs
        /// compare by their first half only, so the second half shows any reordering of equals.
        #[test]
        fn sorts_as_the_standard_library_does(items in prop::collection::vec((0u8..6, any::<u16>()), 0..64)) {
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut theirs = items.clone();
            theirs.sort_by_key(|a| a.0);
            prop_assert_eq!(&ours, &theirs);

            let mut ours = items.clone();
            sort_by_key(&mut ours, |item| std::cmp::Reverse(item.0));
            let mut theirs = items.clone();
            theirs.sort_by_key(|item| std::cmp::Reverse(item.0));
            prop_assert_eq!(&ours, &theirs);

            let mut ours = items.clone();
            sort_by_cached_key(&mut ours, |item| item.1 % 7);
            let mut theirs = items.clone();
            theirs.sort_by_cached_key(|item| item.1 % 7);
            prop_assert_eq!(&ours, &theirs);

            let mut ours = items.clone();
            sort(&mut ours);
            let mut theirs = items;
            theirs.sort();
            prop_assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn owned_elements_move_whole() {
        let mut words: Vec<String> = ["pear", "fig", "apple", "fig"].map(String::from).to_vec();
        sort(&mut words);
        assert_eq!(words, ["apple", "fig", "fig", "pear"]);
        let mut empty: Vec<String> = Vec::new();
        sort(&mut empty);
        assert!(empty.is_empty());
    }
}
