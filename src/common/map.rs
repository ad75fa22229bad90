//! [`VecMap`], the map of the library's caches and registries: entries in a Vec kept
//! sorted by key, found by binary search.
//!
//! Why not `std::collections::HashMap`: the caches hold a few to a few hundred entries
//! (programs, pipelines, uniform blocks, bind groups, per-device states), where a
//! binary search over the keys is as quick as hashing one of them; the registries of
//! JavaScript objects may hold thousands, but their ids only grow, so a new one goes at
//! the end. And each `HashMap<K, V>` brought its own copy of hashbrown's table code
//! into the wasm: hashbrown went, and the gzipped wasm is 5.5 KB smaller
//! (bench/NOTES.md, 2026-12-06).

use std::borrow::Borrow;
use std::ops::Index;

/// A map as a Vec of (key, value) sorted by key.
#[derive(Debug)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Where `key` is, or where it would go.
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| &self.entries[at].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Enters `value` under `key`, returning the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(at) => Some(std::mem::replace(&mut self.entries[at].1, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|at| self.entries.remove(at).1)
    }

    /// The value under `key`, made by `make` and entered if there is none; an error
    /// of `make` enters nothing.
    pub fn get_or_try_insert<E>(
        &mut self,
        key: K,
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<&mut V, E> {
        let at = match self.find(&key) {
            Ok(at) => at,
            Err(at) => {
                self.entries.insert(at, (key, make()?));
                at
            }
        };
        Ok(&mut self.entries[at].1)
    }

    /// The value under `key`, made by `make` and entered if there is none.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        match self.get_or_try_insert(key, || Ok::<V, std::convert::Infallible>(make())) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }
}

impl<K, V> VecMap<K, V> {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

/// `map[&key]`, which panics where the key is absent, as HashMap's does: for a key
/// the code entered just before.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> Index<&Q> for VecMap<K, V> {
    type Output = V;

    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("a key entered before")
    }
}

#[cfg(test)]
mod tests {
    use super::VecMap;

    #[test]
    fn entries_are_found_replaced_and_removed_by_key_in_any_order_of_insertion() {
        let mut map = VecMap::new();
        // A seeded shuffle of 0..200 (an LCG), each key entered once.
        let mut keys: Vec<u32> = (0..200).collect();
        let mut state = 7u32;
        for i in (1..keys.len()).rev() {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            keys.swap(i, (state >> 8) as usize % (i + 1));
        }
        for &k in &keys {
            assert_eq!(map.insert(k, k * 10), None);
        }
        assert_eq!(map.len(), 200);
        assert!((0..200).all(|k| map.get(&k) == Some(&(k * 10))));
        assert_eq!(map.get(&200), None);
        assert_eq!(map.insert(5, 7), Some(50));
        assert_eq!(map[&5], 7);
        for k in (0..200).step_by(2) {
            assert!(map.remove(&k).is_some());
        }
        assert_eq!(map.remove(&0), None);
        assert_eq!(map.len(), 100);
        assert!((0..200).all(|k| map.contains_key(&k) == (k % 2 == 1)));
        let mut values: Vec<u32> = map.values().copied().collect();
        values.sort_unstable();
        assert_eq!(values.len(), 100);
        for v in map.values_mut() {
            *v += 1;
        }
        assert_eq!(map[&1], 11);
        map.clear();
        assert!(map.is_empty());
    }

    #[test]
    fn borrowed_keys_find_owned_ones() {
        let mut map: VecMap<Vec<u32>, &str> = VecMap::new();
        map.insert(vec![1, 2], "a");
        map.insert(vec![1], "b");
        assert_eq!(map.get([1u32, 2].as_slice()), Some(&"a"));
        assert_eq!(map.get([1u32].as_slice()), Some(&"b"));
        assert_eq!(map.get([2u32].as_slice()), None);
        let mut names: VecMap<String, u8> = VecMap::new();
        names.insert("dims".into(), 1);
        assert_eq!(names.get("dims"), Some(&1));
    }

    #[test]
    fn a_failed_make_enters_nothing_and_a_made_value_is_kept() {
        let mut map: VecMap<u8, u8> = VecMap::new();
        assert_eq!(map.get_or_try_insert(3, || Err("no")), Err("no"));
        assert!(map.is_empty());
        assert_eq!(map.get_or_try_insert(3, || Ok::<u8, ()>(9)), Ok(&mut 9));
        assert_eq!(*map.get_or_try_insert(3, || Err(())).unwrap(), 9);
        assert_eq!(*map.get_or_insert_with(4, || 2), 2);
        assert_eq!(*map.get_or_insert_with(4, || 5), 2);
    }

    #[test]
    #[should_panic(expected = "a key entered before")]
    fn indexing_an_absent_key_panics_as_a_hash_map_does() {
        let map: VecMap<u8, u8> = VecMap::new();
        let _ = map[&1];
    }
}
