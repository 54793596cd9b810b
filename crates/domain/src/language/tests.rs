use super::*;

fn embedded() -> Lexicon {
    Lexicon::parse(Files::EMBEDDED).unwrap_or_else(|e| panic!("{e}"))
}

/// The embedded files with `from` replaced by `to` in the file named `which`.
fn edited(which: &str, from: &str, to: &str) -> Files<'static> {
    let mut files = Files::EMBEDDED;
    let text = match which {
        "list" => &mut files.list,
        "names" => &mut files.names,
        "allergy" => &mut files.allergy,
        _ => unreachable!("a file of the tests"),
    };
    assert!(text.contains(from), "the file has {from:?}");
    *text = Box::leak(text.replacen(from, to, 1).into_boxed_str());
    files
}

#[test]
fn the_embedded_files_parse_into_every_class() {
    let lexicon = embedded();
    let list = &lexicon.list;
    assert_eq!(
        list.headers.first().map(|h| h.phrase.as_str()),
        Some("ingredients/ingrédients")
    );
    assert_eq!(
        list.headers
            .iter()
            .find(|h| h.phrase == "zutaten")
            .and_then(|h| h.language),
        Some(Language::German)
    );
    // A phrase of a class of its own is read in each of its roles.
    assert!(list.section_starts.iter().any(|s| s == "best before"));
    assert!(list.notices.all().iter().any(|s| s == "best before"));
    assert!(list.section_starts.iter().any(|s| s == "may contain"));
    assert!(list.markers.all().iter().any(|s| s == "may contain"));
    assert!(list.markers.all().iter().any(|s| s == "contains"));
    assert_eq!(list.conjunctions.first().map(String::as_str), Some(" and "));
    assert!(list.conjunctions.iter().any(|c| c == "和"));
    assert_eq!(
        list.leading_conjunctions.first().map(String::as_str),
        Some("and ")
    );
    assert!(
        list.components
            .contains(&("fullung".to_owned(), "Filling".to_owned()))
    );
    let names = &lexicon.names;
    assert!(names.qualifiers.iter().any(|q| q == "organic "));
    // A written modifier marked `also` is read in its other class too.
    assert!(names.modifiers.contains("entier") && names.modifiers.contains("grated"));
    assert!(names.qualifiers.iter().any(|q| q == "frais "));
    assert!(
        names.modifiers.contains("frais"),
        "qualifiers are set aside too"
    );
    assert!(names.little.contains("de") && names.prepositions.contains("de"));
    assert!(!names.prepositions.contains("the"));
    assert!(names.forms.contains("farine") && names.forms.contains("powder"));
    assert_eq!(names.seed_oils[0].0, "olio di ");
    let allergy = &lexicon.allergy;
    assert!(allergy.negations_before.contains("sans") && allergy.negations_before.contains("no"));
    assert!(names.claims.contains("sans") && !names.claims.contains("no"));
    assert_eq!(
        allergy.noise_after.first().map(String::as_str),
        Some(" allergy")
    );
    let english = &lexicon.english;
    let fr = english.modifiers(Language::French);
    assert!(fr.iter().any(|(k, v)| k == "entiere" && v == "Whole"));
    let ja = english.words(Language::Japanese);
    assert!(
        ja.iter().any(|(k, v)| k == "全" && v == "Whole"),
        "marked naming words"
    );
    assert_eq!(lexicon.cues.languages.len(), 6);
}

#[test]
fn markers_of_one_first_byte_are_read_longest_first() {
    let lexicon = embedded();
    for byte in 0..=u8::MAX {
        let group = lexicon.list.markers.starting_with(byte);
        assert!(group.iter().all(|m| m.as_bytes()[0] == byte));
        for (i, shorter) in group.iter().enumerate() {
            assert!(
                !group[i + 1..]
                    .iter()
                    .any(|longer| longer.starts_with(shorter.as_str())),
                "{shorter} before a longer marker it starts"
            );
        }
    }
    let grouped: usize = (0..=u8::MAX)
        .map(|b| lexicon.list.markers.starting_with(b).len())
        .sum();
    assert_eq!(grouped, lexicon.list.markers.all().len());
    assert!(lexicon.list.markers.first_chars().contains(&'可'));
}

#[test]
fn a_phrase_in_two_statement_classes_is_refused() {
    // A header that would also end the list it opens.
    let files = edited(
        "list",
        "en = [\n    \"nutrition\",",
        "en = [\n    \"zutaten\", \"nutrition\",",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Ambiguous { word, .. }) if word == "zutaten"
    ));
    // A notice that is also a section start must be one notice section, not both.
    let files = edited(
        "list",
        "notices = [\n",
        "notices = [\n    \"best before\",\n",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Ambiguous { word, .. }) if word == "best before"
    ));
}

#[test]
fn a_modifier_listed_twice_is_refused() {
    // "entier" is a written modifier marked as a modifier: listing it as a modifier too is
    // the same word in two places.
    let files = edited(
        "names",
        "fr = [\n    \"rape\",",
        "fr = [\n    \"entier\", \"rape\",",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Ambiguous { word, .. }) if word == "entier"
    ));
    // A written modifier also listed as a naming word of its language.
    let files = edited(
        "names",
        "[naming.fr]\n",
        "[naming.fr]\n\"entier\" = \"Whole\"\n",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Ambiguous { .. })
    ));
}

#[test]
fn a_component_word_that_names_a_function_class_is_refused() {
    let files = edited(
        "list",
        "\"Mix\" = [\"mix\"",
        "\"Mix\" = [\"emulsifier\", \"mix\"",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Ambiguous { word, .. }) if word == "emulsifier"
    ));
}

#[test]
fn repeats_unfolded_words_and_unknown_languages_are_refused() {
    let files = edited(
        "allergy",
        "plant_milk = [\n",
        "plant_milk = [\n    \"soja\",\n",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Repeated { .. })
    ));
    let files = edited(
        "names",
        "qualifiers = [\n",
        "qualifiers = [\n    \"Rôti\",\n",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Form { .. })
    ));
    let files = edited(
        "list",
        "[statement_words]\nen = [",
        "[statement_words]\nxx = []\nen = [",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::UnknownLanguage { .. })
    ));
    let files = edited(
        "allergy",
        "whole_word_only = [\"wheat\"]",
        "whole_word_only = [\"wheat\", \"soja\"]",
    );
    assert!(matches!(
        Lexicon::parse(files),
        Err(LexiconError::Ambiguous { word, .. }) if word == "soja"
    ));
}

#[test]
fn languages_have_one_code_each() {
    for language in Language::ALL {
        assert_eq!(Language::from_code(language.code()), Some(language));
        assert_eq!(
            Language::from_code(&language.code().to_uppercase()),
            Some(language)
        );
    }
    assert_eq!(Language::translations().count(), 8);
    assert!(Language::translations().all(|l| l != Language::English));
    assert_eq!(Language::from_code("xx"), None);
}

#[test]
fn written_modifiers_stand_for_their_other_genders_and_numbers() {
    let endings = |pairs: &[(&str, &[&str])]| -> BTreeMap<String, Vec<String>> {
        pairs
            .iter()
            .map(|(e, o)| ((*e).to_owned(), o.iter().map(|s| (*s).to_owned()).collect()))
            .collect()
    };
    let mut table: BTreeMap<String, String> = [
        ("modificato", "Modified"),
        ("fresco", "Fresh"),
        ("cotti", "Cooked"),
        ("parzialmente idrogenato", "Partially Hydrogenated"),
    ]
    .iter()
    .map(|(p, e)| ((*p).to_owned(), (*e).to_owned()))
    .collect();
    table.insert("cotta".to_owned(), "Baked".to_owned());
    let it = endings(&[("o", &["a", "i", "e"]), ("co", &["ca", "chi", "che"])]);
    inflect(&mut table, Some(&it));
    let english = |w: &str| table.get(w).map(String::as_str);
    assert_eq!(english("modificata"), Some("Modified"));
    assert_eq!(english("modificate"), Some("Modified"));
    // The longest ending decides (-co makes -chi, not -ci).
    assert_eq!(english("freschi"), Some("Fresh"));
    assert_eq!(english("fresci"), None);
    // The last word of a phrase agrees; a listed form keeps its own English.
    assert_eq!(
        english("parzialmente idrogenate"),
        Some("Partially Hydrogenated")
    );
    assert_eq!(english("cotta"), Some("Baked"));
    // A plural is no masculine singular: nothing is made from it.
    assert_eq!(english("cottia"), None);
    // The embedded tables hold the forms made from names.toml's endings.
    let tables = english::LabelEnglish::get();
    let has = |language: Language, printed: &str, en: &str| {
        tables
            .modifiers(language)
            .iter()
            .any(|(p, e)| *p == fold(printed) && e == en)
    };
    assert!(has(Language::Italian, "modificata", "Modified"));
    assert!(has(Language::French, "iodées", "Iodised"));
    assert!(has(Language::Spanish, "laminadas", "Sliced"));
    assert!(has(Language::Portuguese, "fatiadas", "Sliced"));
}
