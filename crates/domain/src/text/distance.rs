//! One edit distance: the restricted Damerau-Levenshtein distance (optimal string alignment:
//! insertions, deletions, substitutions, and a swap of two neighbours as one edit), on bytes
//! of ASCII names or on characters. [`bounded_distance`] stops as soon as the distance must
//! exceed a bound and never allocates (the knowledge base's typo correction, a misread
//! header); [`edit_distance`] has no bound. [`byte_mask`], [`byte_histogram`] and
//! [`histogram_distance`] are cheap lower bounds that skip most candidates before a distance
//! is computed.

/// A 64-bit set of the bytes of `s` (each byte to one bit): a typo of `d` edits changes at
/// most `2 * d` bits, so candidates farther apart are skipped without computing a distance.
pub fn byte_mask(s: &[u8]) -> u64 {
    s.iter().fold(0u64, |m, b| m | 1u64 << (b % 64))
}

/// Byte counts of `s` in 32 bins: `d` edits change the bins' L1 distance by at most `2 * d`.
pub fn byte_histogram(s: &[u8]) -> [u8; 32] {
    let mut h = [0u8; 32];
    for b in s {
        let bin = usize::from(b % 32);
        h[bin] = h[bin].saturating_add(1);
    }
    h
}

/// The L1 distance of two histograms, stopping early above `max`.
pub fn histogram_distance(a: &[u8; 32], b: &[u8; 32], max: usize) -> bool {
    let mut d = 0usize;
    for (x, y) in a.iter().zip(b) {
        d += usize::from(x.abs_diff(*y));
    }
    d <= max
}

/// The restricted Damerau-Levenshtein (optimal string alignment) distance between `a` and `b`
/// (bytes of ASCII names, or characters), or `None` as soon as it must exceed `max`.
/// Without allocating: sequences of 64 items or more are never compared (names that long are
/// not typo-corrected).
pub fn bounded_distance<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    const N: usize = 64;
    if a.len() >= N || b.len() >= N || a.len().abs_diff(b.len()) > max {
        return None;
    }
    let (n, m) = (a.len(), b.len());
    let mut prev2 = [0usize; N];
    let mut prev = [0usize; N];
    let mut cur = [0usize; N];
    for (j, p) in prev.iter_mut().enumerate().take(m + 1) {
        *p = j;
    }
    for i in 1..=n {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        prev2 = prev;
        prev = cur;
    }
    let d = prev[m];
    (d <= max).then_some(d)
}

/// The distance of [`bounded_distance`] without a bound, for sequences of any length.
pub fn edit_distance<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let m = b.len();
    let mut prev2 = vec![0usize; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur = vec![0usize; m + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[m]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Optimal string alignment distance, the textbook full-matrix way (the test's oracle).
    fn osa_distance(a: &[char], b: &[char]) -> usize {
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }

    #[test]
    fn distance_counts_transpositions_once() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(bounded_distance(&c("glycerln"), &c("glycerin"), 2), Some(1));
        assert_eq!(bounded_distance(&c("glyecrin"), &c("glycerin"), 2), Some(1));
        assert_eq!(bounded_distance(&c("nutmeg"), &c("nut"), 2), None);
        assert_eq!(bounded_distance(&c("abc"), &c("abc"), 0), Some(0));
        assert_eq!(edit_distance(&c("ab"), &c("b")), 1);
        assert_eq!(edit_distance(&c("glyecrin"), &c("glycerin")), 1);
        let long = "x".repeat(100);
        assert_eq!(edit_distance(long.as_bytes(), b""), 100);
    }

    proptest! {
        #[test]
        fn bounded_distance_is_the_full_distance_when_small(a in "[a-cé ]{0,12}", b in "[a-cé ]{0,12}") {
            let ca: Vec<char> = a.chars().collect();
            let cb: Vec<char> = b.chars().collect();
            let full = osa_distance(&ca, &cb);
            let expected = (full <= 2).then_some(full);
            prop_assert_eq!(bounded_distance(&ca, &cb, 2), expected);
            prop_assert_eq!(edit_distance(&ca, &cb), full);
            if a.is_ascii() && b.is_ascii() {
                prop_assert_eq!(bounded_distance(a.as_bytes(), b.as_bytes(), 2), expected);
            }
        }

    }
}
