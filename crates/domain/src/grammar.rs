//! The one grammar of ingredient lists, shared by `/analyze` ([`crate::parse`], which splits a
//! list) and `/ocr` ([`crate::ocr::label`], which finds where a list starts and ends in the
//! text read from a label): its words are the [`ListWords`] of the label languages
//! ([`crate::language`]: the headers that open a list, the abbreviations whose full stop ends
//! neither an item nor the list, statements, conjunctions), with the words that name a
//! function class or a component rather than an ingredient.

pub(crate) mod split;

pub use crate::language::Language;
use crate::language::classes::FunctionClasses;
use crate::language::{Lexicon, ListWords};
use crate::text::fold::fold;

/// The words of the list grammar.
pub fn words() -> &'static ListWords {
    &Lexicon::get().list
}

/// Whether `name` names a function class rather than an ingredient ("Preservative (E211)",
/// "Emulsifier: lecithin").
pub(crate) fn is_class_word(name: &str) -> bool {
    class_of(name).is_some()
}

/// Whether the first word of `name` is the first word of a class word ("Süßungsmittel
/// Aspartam …", "raising agent …"): a cheap test, without allocating for ASCII names, before
/// the class word is looked for.
pub(crate) fn starts_with_class_word(name: &str) -> bool {
    FunctionClasses::get().starts_a_class_name(name)
}

/// The English name of the function class `name` names ("émulsifiant" → Emulsifier, "膨脹剤"
/// → Raising agent, "Anionische Tenside" → Anionic surfactant).
pub(crate) fn class_of(name: &str) -> Option<&'static str> {
    FunctionClasses::get()
        .class(name)
        .map(|(class, _)| class.one.as_str())
}

/// The English name of the component a compound item's name says it is ("romano flavor" →
/// Flavouring preparation, "sauce 14%" → Sauce), when a word of the name is a component word.
pub(crate) fn component_of(name: &str) -> Option<&'static str> {
    let folded = fold(name);
    let components = &words().components;
    folded.split(' ').find_map(|w| {
        components
            .iter()
            .find(|(word, _)| word == w)
            .map(|(_, english)| english.as_str())
    })
}
