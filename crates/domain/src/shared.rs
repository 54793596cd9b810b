//! [`SharedStr`]: immutable text shared by the knowledge base and the responses built from it.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An immutable string behind a reference count.
///
/// Most text of an [`IngredientDetail`](crate::analysis::IngredientDetail) (canonical name,
/// purpose, concerns, alternatives, references) is the knowledge base's own, the same for
/// every request. Cloning a `SharedStr` increments a count where cloning a `String` allocates
/// and copies: for a 40-ingredient answer that was some 200 allocations and 13 KB of copies
/// per request. It reads like a `&str` (`Deref`), compares with `str` and `String`, and
/// serialises as a plain JSON string.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SharedStr(Arc<str>);

impl SharedStr {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for SharedStr {
    fn from(s: &str) -> Self {
        Self(Arc::from(s))
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> Self {
        Self(Arc::from(s))
    }
}

impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == *other.0
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        **self == *other.0
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        **self == *other.0
    }
}

impl Serialize for SharedStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_compares_and_serialises_like_a_string() {
        let s = SharedStr::from("Glycerin \"humectant\"");
        let copy = s.clone();
        assert!(Arc::ptr_eq(&s.0, &copy.0), "a clone shares the text");
        assert_eq!(s, "Glycerin \"humectant\"");
        assert_eq!("Glycerin \"humectant\"".to_owned(), s);
        assert!(s.contains("humectant"));
        assert_eq!(
            format!("{s} / {s:?}"),
            r#"Glycerin "humectant" / "Glycerin \"humectant\"""#
        );
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#""Glycerin \"humectant\"""#);
        assert_eq!(serde_json::from_str::<SharedStr>(&json).unwrap(), s);
    }
}
