//! Function classes: the words a label prints for what an additive or a group of ingredients
//! does ("Emulsifier (soya lecithin)", `émulsifiant`, `膨脹剤`, `Anionische Tenside`) rather
//! than for an ingredient, in the nine languages, with their English names
//! (`data/language/function-classes.toml`, read by [`Lexicon`](super::Lexicon)). The grammar
//! reads a class word before brackets as the list of its contents and a class word alone as
//! its class; `/ocr`'s English text writes the class in English, in the number printed.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use crate::text::fold::fold;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    class: Vec<ClassFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassFile {
    one: String,
    many: String,
    #[serde(default)]
    one_names: Vec<String>,
    #[serde(default)]
    many_names: Vec<String>,
    #[serde(default)]
    names: Vec<String>,
}

/// Whether a printed class name says one, several, or leaves it to its contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Number {
    /// Singular as printed.
    One,
    /// Plural as printed.
    Many,
    /// Not marked (German `-mittel`, Korean, Japanese, Chinese).
    Unmarked,
}

/// A function class's English names.
#[derive(Debug)]
pub struct Class {
    /// Singular ("Raising agent").
    pub one: String,
    /// Plural ("Raising agents").
    pub many: String,
}

/// The loaded table: every printed name, folded, to its class and number.
#[derive(Debug)]
pub struct FunctionClasses {
    classes: Vec<Class>,
    names: HashMap<String, (usize, Number)>,
    /// The first word of every name, folded: a cheap test before a name is folded whole.
    first_words: HashSet<String>,
}

/// Why the file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ClassesError {
    /// Not the file's shape.
    #[error("function-classes.toml: {0}")]
    Toml(#[from] toml::de::Error),
    /// One printed name in two classes.
    #[error("function-classes.toml: '{name}' names both {first} and {second}")]
    Ambiguous {
        /// The name, folded.
        name: String,
        /// One class.
        first: String,
        /// The other.
        second: String,
    },
}

impl FunctionClasses {
    /// The embedded table.
    pub fn get() -> &'static FunctionClasses {
        &super::Lexicon::get().classes
    }

    /// Parses the file's text; a name folded alike in two classes is an error.
    pub fn parse(text: &str) -> Result<Self, ClassesError> {
        let file: File = toml::from_str(text)?;
        let mut names: HashMap<String, (usize, Number)> = HashMap::new();
        let mut classes = Vec::new();
        for (i, class) in file.class.into_iter().enumerate() {
            for (printed, number) in [
                (&class.one_names, Number::One),
                (&class.many_names, Number::Many),
                (&class.names, Number::Unmarked),
            ] {
                for name in printed {
                    let key = fold(name);
                    if let Some(&(j, _)) = names.get(&key)
                        && j != i
                    {
                        return Err(ClassesError::Ambiguous {
                            name: key,
                            first: classes
                                .get(j)
                                .map_or_else(String::new, |c: &Class| c.one.clone()),
                            second: class.one.clone(),
                        });
                    }
                    names.insert(key, (i, number));
                }
            }
            classes.push(Class {
                one: class.one,
                many: class.many,
            });
        }
        let first_words = names
            .keys()
            .map(|k| k.split(' ').next().unwrap_or(k).to_owned())
            .collect();
        Ok(Self {
            classes,
            names,
            first_words,
        })
    }

    /// The function class a printed name is, with the number it is printed in.
    pub fn class(&self, name: &str) -> Option<(&Class, Number)> {
        let (i, number) = self.names.get(&fold(name))?;
        Some((&self.classes[*i], *number))
    }

    /// Every printed class name, folded (`膨松剂`, `poudres a lever`).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }

    /// Whether the first word of `name` is the first word of a class name ("Süßungsmittel
    /// Aspartam …", "raising agent …"): without allocating for short ASCII words.
    pub fn starts_a_class_name(&self, name: &str) -> bool {
        let word = name.split(' ').next().unwrap_or(name);
        if !word.is_ascii() {
            return self.first_words.contains(fold(word).as_str());
        }
        let mut buf = [0u8; 32];
        if word.len() > buf.len() {
            return false;
        }
        for (b, c) in buf.iter_mut().zip(word.bytes()) {
            *b = c.to_ascii_lowercase();
        }
        std::str::from_utf8(&buf[..word.len()]).is_ok_and(|w| self.first_words.contains(w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_parses_and_names_classes_in_each_script() {
        let table = FunctionClasses::parse(super::super::Files::EMBEDDED.classes).unwrap();
        let one = |name: &str| table.class(name).map(|(c, n)| (c.one.as_str(), n));
        assert_eq!(
            one("Poudres à lever"),
            Some(("Raising agent", Number::Many))
        );
        assert_eq!(one("émulsifiant"), Some(("Emulsifier", Number::One)));
        assert_eq!(one("乳化剤"), Some(("Emulsifier", Number::Unmarked)));
        assert_eq!(
            one("Anionische Tenside"),
            Some(("Anionic surfactant", Number::Many))
        );
        assert_eq!(
            one("음이온계면활성제"),
            Some(("Anionic surfactant", Number::Unmarked))
        );
        assert_eq!(one("Süßungsmittel").map(|(c, _)| c), Some("Sweetener"));
        assert_eq!(one("Sucre"), None);
        assert!(table.starts_a_class_name("Raising agents (E500)"));
        assert!(table.starts_a_class_name("Süßungsmittel Aspartam"));
        assert!(!table.starts_a_class_name("Wheat flour"));
    }

    #[test]
    fn a_name_in_two_classes_is_refused() {
        let text = "[[class]]\none = \"A\"\nmany = \"As\"\nnames = [\"x\"]\n\
                    [[class]]\none = \"B\"\nmany = \"Bs\"\nnames = [\"X\"]\n";
        assert!(matches!(
            FunctionClasses::parse(text),
            Err(ClassesError::Ambiguous { .. })
        ));
    }
}
