//! Translating a label's items to English through the knowledge base's multilingual names.
//!
//! A name printed in a label language that the knowledge base knows becomes English: in a
//! cosmetic list ([`product_kind`]) its INCI name (`Eau` → `Aqua`, `Huile de tournesol` →
//! `Helianthus Annuus Seed Oil`), in a food list the entry's English name that the printed
//! words say, with the qualifiers printed (`Lait entier en poudre` → `Whole Milk Powder`,
//! `정제소금` → `Refined Salt`), in the number printed (`Noisettes` → `Hazelnuts`) and UK label
//! spelling (`Soya Lecithin`). A function class printed before its contents becomes its
//! English class name (`Poudres à lever (…)` → `Raising agents (…)`). The tables for all this
//! are [`LabelEnglish`]'s. Names the knowledge base does not know stay as printed, and so do
//! names printed as one of the entry's own English or INCI names (`Aqua`, `Parfum`: INCI is
//! the same in every language). Brackets are translated part by part.
//!
//! Misreads are mended before, by the service that read the label (names known only as a
//! typo stay as printed here).

use crate::grammar::words;
use crate::knowledge::{Ingredient, KnowledgeBase, MatchKind, Resolved};
use crate::language::Lexicon;
use crate::language::english::{LabelEnglish, Number};
use crate::parse::{leading_class_word, split_ingredients};
use crate::text::fold::fold;
use crate::vocabulary::ProductCategory;

use super::label::{Language, split_items};

/// The items in English; English labels and unknown names are left as printed.
pub fn to_english(kb: &KnowledgeBase, items: &[String], language: Option<Language>) -> Vec<String> {
    if matches!(language, None | Some(Language::English)) {
        return items.to_vec();
    }
    if language == Some(Language::Chinese) {
        // A traditional Chinese list (Taiwan, Hong Kong) is read in its simplified forms; a
        // name none of them makes known stays as printed.
        let tables = LabelEnglish::get();
        let simplified: Vec<Option<String>> =
            items.iter().map(|item| tables.simplified(item)).collect();
        if simplified.iter().any(Option::is_some) {
            let folded: Vec<String> = items
                .iter()
                .zip(&simplified)
                .map(|(item, simple)| simple.clone().unwrap_or_else(|| item.clone()))
                .collect();
            let english = translated(kb, &folded, language);
            if english.len() == items.len() {
                return english
                    .into_iter()
                    .zip(folded.iter().zip(items))
                    .map(|(english, (folded, item))| {
                        if english == *folded {
                            item.clone()
                        } else {
                            english
                        }
                    })
                    .collect();
            }
            return english;
        }
    }
    translated(kb, items, language)
}

/// [`to_english`] of a list in a label language.
fn translated(kb: &KnowledgeBase, items: &[String], language: Option<Language>) -> Vec<String> {
    let kind = if is_household(kb, items, language) {
        ProductKind::Household
    } else {
        product_kind(kb, items, language)
    };
    let translator = Translator::new(kb, language, kind);
    let mut items = rejoined(kb, language, items);
    let european = !language.is_some_and(Language::is_cjk);
    if kind == ProductKind::Food && european {
        items = items.iter().map(|item| uncapitalised(item)).collect();
    }
    let following: Vec<usize> = (0..items.len())
        .map(|i| following_additives(kb, &items[i + 1..]))
        .collect();
    let english: Vec<String> = items
        .iter()
        .zip(&following)
        .map(|(item, &following)| {
            translator.following.set(following);
            let english = translator.item(item);
            if european {
                decimal_points(&english)
            } else {
                english
            }
        })
        .collect();
    under_their_class(&items, &english, &following)
}

/// A class word's item printed with a colon (`Säuerungsmittel: Äpfelsäure`) and the additives
/// after it that are more of its contents ([`following_additives`]) as one English item with
/// the contents in brackets (`Acids (Malic Acid, Lactic Acid)`): in a comma-separated text
/// the printed form would read as several items, and `/analyze` reads the brackets as the
/// class's ingredients. A single content keeps the colon (`Emulsifier: Soya Lecithin`).
fn under_their_class(items: &[String], english: &[String], following: &[usize]) -> Vec<String> {
    let mut out = Vec::with_capacity(english.len());
    let mut i = 0;
    while i < english.len() {
        let n = following[i];
        match english[i].split_once(": ") {
            Some((class, content)) if n > 0 && items[i].contains(':') => {
                let contents: Vec<&str> = std::iter::once(content)
                    .chain(english[i + 1..=i + n].iter().map(String::as_str))
                    .collect();
                out.push(format!("{class} ({})", contents.join(", ")));
                i += n + 1;
            }
            _ => {
                out.push(english[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// A food list's words printed in capitals to emphasise an allergen (Regulation (EU) No
/// 1169/2011 Article 21: `farine de BLÉ`, `ROGGENvollkornschrot`) in lower case, so that the
/// name is found; the marks and abbreviations labels print in capitals (`DOP`, `UHT`) and
/// words with digits stay. In an item printed all in capitals (Brazilian labels: `COALHO E
/// CLORETO DE CÁLCIO`) the short words go to lower case too, but for a letter before a
/// number (`E 330`, `VITAMINA B 12`).
fn uncapitalised(item: &str) -> String {
    let tables = LabelEnglish::get();
    let words: Vec<&str> = item.split(' ').collect();
    let letters_of =
        |word: &str| -> Vec<char> { word.chars().filter(|c| c.is_alphabetic()).collect() };
    let long: Vec<Vec<char>> = words
        .iter()
        .map(|w| letters_of(w))
        .filter(|l| l.len() >= 3)
        .collect();
    let shouted = !long.is_empty() && long.iter().all(|l| l.iter().all(|c| c.is_uppercase()));
    let mut out = String::with_capacity(item.len());
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let letters = letters_of(word);
        let run = word.chars().take_while(|c| c.is_uppercase()).count();
        let before_number = words
            .get(i + 1)
            .is_some_and(|next| next.starts_with(|c: char| c.is_ascii_digit()));
        let short = shouted && !letters.is_empty() && letters.len() < 3 && !before_number;
        let whole = (letters.len() >= 3 || short) && letters.iter().all(|c| c.is_uppercase());
        let keep = word.chars().any(|c| c.is_ascii_digit())
            || tables.kept_in_capitals(word.trim_matches(|c: char| !c.is_alphanumeric()));
        if keep || !(whole || run >= 3) {
            out.push_str(word);
        } else if whole {
            out.extend(word.chars().flat_map(char::to_lowercase));
        } else {
            // `ROGGENvollkornschrot`: the capitals before the rest of the word.
            let at = word
                .char_indices()
                .nth(run)
                .map_or(word.len(), |(at, _)| at);
            out.extend(word[..at].chars().flat_map(char::to_lowercase));
            out.push_str(&word[at..]);
        }
    }
    out
}

/// English decimal points in the shares a European label prints with a decimal comma
/// (`2,5 %` → 2.5 %).
fn decimal_points(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let digit = |j: Option<usize>| {
                j.and_then(|j| chars.get(j))
                    .is_some_and(char::is_ascii_digit)
            };
            if c == ',' && digit(i.checked_sub(1)) && digit(Some(i + 1)) {
                '.'
            } else {
                c
            }
        })
        .collect()
}

/// The items with a name the list splitter cut at its own comma joined again: GB 2760 writes
/// mono- and diglycerides `单,双甘油脂肪酸酯`, which the splitter reads as two items (`单`,
/// `双甘油脂肪酸酯`); two neighbours are one when the knowledge base knows them joined by the
/// comma and does not know the first alone.
fn rejoined(kb: &KnowledgeBase, language: Option<Language>, items: &[String]) -> Vec<String> {
    let tables = LabelEnglish::get();
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        if let Some(last) = out.last_mut() {
            let joined = format!("{},{}", last.trim(), item.trim());
            // Known to the knowledge base, or to the label tables (`トルエン-2,5-ジアミン`).
            let known = |name: &str| {
                kb.resolve(name).is_some_and(|r| r.kind == MatchKind::Exact)
                    || language.is_some_and(|l| {
                        tables.label_name(l, name).is_some()
                            || tables.cosmetic_name(l, name).is_some()
                    })
            };
            if !known(last.trim()) && known(&joined) {
                *last = joined;
                continue;
            }
        }
        out.push(item.clone());
    }
    out
}

/// How many of the items after a class word's item are more of its contents: a class word
/// over its items without brackets is followed by them as items of the list
/// (`Säuerungsmittel: Äpfelsäure, Milchsäure, Säureregulator: …`), so the additives that
/// follow it, up to the next class word or the first name that is no additive, are counted
/// for the number of a class word that does not mark it.
fn following_additives(kb: &KnowledgeBase, items: &[String]) -> usize {
    items
        .iter()
        .take_while(|item| {
            !item.contains([':', '(', '（'])
                && leading_class_word(item).is_none()
                && LabelEnglish::get().class(item).is_none()
                && kb
                    .resolve(item.trim())
                    .is_some_and(|r| r.kind == MatchKind::Exact && r.ingredient.e_number.is_some())
        })
        .count()
}

/// What a list is made for: a cosmetic list is written with INCI names in English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProductKind {
    /// A food (or anything not shown to be a cosmetic).
    Food,
    /// A cosmetic product: more items known only as cosmetic ingredients than as foods.
    Cosmetic,
    /// A detergent or cleaning product, labelled in the words of the detergents regulation
    /// (surfactants in weight bands): plain English names, not INCI.
    Household,
}

/// Whether a list is a household product's: an item names a class of surfactants, with or
/// without its weight band (`5-15 % anionische Tenside`).
fn is_household(kb: &KnowledgeBase, items: &[String], language: Option<Language>) -> bool {
    let Some(language) = language else {
        return false;
    };
    let tables = LabelEnglish::get();
    // A CJK list naming its surfactants one by one (`脂肪醇聚氧乙烯醚硫酸钠`, `荧光增白剂`):
    // two names only the household tables know, one of them no function class or food label
    // name (`色素`, `防腐剂`, `増粘剤` are printed on foods too).
    let heads: Vec<&str> = items
        .iter()
        .map(|item| item.split(['(', '（']).next().unwrap_or(item).trim())
        .filter(|head| {
            language.is_cjk()
                && tables.household_name(language, head).is_some()
                && kb.resolve(head).is_none()
        })
        .collect();
    let on_foods_too =
        |head: &str| tables.class(head).is_some() || tables.label_name(language, head).is_some();
    if heads.len() >= 2 && heads.iter().any(|head| !on_foods_too(head)) {
        return true;
    }
    items.iter().any(|item| {
        let (_, rest) = band_and_rest(item);
        // A class printed over its components with their shares in brackets
        // (`界面活性剤（24%、…）`) is named before the bracket.
        let head = item.split(['(', '（']).next().unwrap_or(item).trim();
        // … or with its share before the bracket (`界面活性剂 25%（…）`).
        let unshared = share_after(head).map_or(head, |(name, _)| name);
        [rest, tables.without_band_preposition(rest), head, unshared]
            .iter()
            .any(|name| {
                tables
                    .class(name)
                    .is_some_and(|(class, _)| class.many.ends_with("surfactants"))
                    || tables.household_name(language, name) == Some("Surfactants")
            })
    })
}

/// An item of a household list cut after its weight band: (`5-15 %`, `anionische Tenside`);
/// the band is empty when no `%` is printed.
fn band_and_rest(item: &str) -> (&str, &str) {
    match item.rfind(['%', '％']) {
        Some(at) => {
            let end = at + item[at..].chars().next().map_or(1, char::len_utf8);
            (item[..end].trim(), item[end..].trim())
        }
        None => ("", item.trim()),
    }
}

/// Decides the kind of product from the list: the items the knowledge base knows only as a
/// cosmetic ingredient (`Cetearyl Alcohol`, `Parfum`) against those it knows only as a food
/// (`Wheat Flour`, `Sunflower Oil`); items of both (water, glycerol, citric acid) do not vote.
pub fn product_kind(
    kb: &KnowledgeBase,
    items: &[String],
    language: Option<Language>,
) -> ProductKind {
    let tables = LabelEnglish::get();
    let (mut cosmetic, mut food) = (0usize, 0usize);
    for item in items {
        let head = item.split(['(', '（']).next().unwrap_or(item).trim();
        let Some(resolved) = kb.resolve(head) else {
            // A CJK cosmetic labelling name no entry holds (`パラアミノフェノール`, `PEG6000`)
            // is a cosmetic's, unless it is a food label name too.
            if let Some(language) = language.filter(|l| l.is_cjk())
                && tables.cosmetic_name(language, head).is_some()
                && tables.label_name(language, head).is_none()
            {
                cosmetic += 1;
            }
            continue;
        };
        let categories: Vec<ProductCategory> = entries_of(kb, &resolved)
            .iter()
            .map(|e| e.category)
            .collect();
        if categories.iter().all(|c| *c == ProductCategory::Cosmetics) {
            cosmetic += 1;
        } else if categories.iter().all(|c| *c == ProductCategory::Food) {
            food += 1;
        }
    }
    if cosmetic > food {
        ProductKind::Cosmetic
    } else {
        ProductKind::Food
    }
}

/// The entry a name resolved to and the others that share the name.
fn entries_of<'kb>(kb: &'kb KnowledgeBase, resolved: &Resolved<'kb>) -> Vec<&'kb Ingredient> {
    std::iter::once(resolved.ingredient)
        .chain(resolved.also.iter().filter_map(|i| kb.get(*i as usize)))
        .collect()
}

/// Translates the items of one list: the kind of product and the label language decide how
/// names are written.
struct Translator<'kb> {
    kb: &'kb KnowledgeBase,
    language: Option<Language>,
    kind: ProductKind,
    tables: &'static LabelEnglish,
    /// The additives printed as items after the item being translated
    /// ([`following_additives`]).
    following: std::cell::Cell<usize>,
}

/// A name resolved for translation: its entries, how it matched, and the qualifiers the
/// printed name adds to the entry (`entier` in `lait entier en poudre`).
struct Found<'kb> {
    entries: Vec<&'kb Ingredient>,
    kind: MatchKind,
    added: Vec<&'static str>,
}

impl<'kb> Translator<'kb> {
    fn new(kb: &'kb KnowledgeBase, language: Option<Language>, kind: ProductKind) -> Self {
        Self {
            kb,
            language,
            kind,
            tables: LabelEnglish::get(),
            following: std::cell::Cell::new(0),
        }
    }

    /// One item, with any bracketed part translated item by item.
    fn item(&self, item: &str) -> String {
        if self.kind == ProductKind::Household
            && let Some(english) = self.household(item)
        {
            return english;
        }
        // A mixture "in varying proportions" (`oli vegetali in proporzione variabile (girasole,
        // palma)`): the item without those words in English, the words after its name.
        if let Some(language) = self.language.filter(|l| !l.is_cjk())
            && let Some((start, end)) = self.tables.varying_proportions(language, item)
            // Inside a bracket, the words are its part's (read when the part is).
            && item[..start].matches('(').count() == item[..start].matches(')').count()
        {
            let rest = format!("{}{}", item[..start].trim_end(), &item[end..]);
            if !rest.trim().is_empty() {
                let english = self.item(&rest);
                let words = "in varying proportions";
                let bracket = item[end..].trim_start().starts_with('(');
                return match english.find(" (").filter(|_| bracket) {
                    Some(at) => format!("{} {words}{}", &english[..at], &english[at..]),
                    None => format!("{english} {words}"),
                };
            }
        }
        // A declaration after the list's items (Brazil's Lei 10.674/2003: `CONTÉM GLÚTEN`;
        // `contiene solfiti`): "contains" and the English of what it names.
        if let Some(language) = self.language.filter(|l| !l.is_cjk())
            && let Some(rest) = self.tables.contained(language, item)
            && self.name(item, None).is_none()
            && let Some(english) = self.name(rest, None)
        {
            return format!("contains {english}");
        }
        if self.language == Some(Language::Japanese) {
            // The slash Japanese labels print between the last food and the first additive
            // (食品表示基準: `バター／乳化剤`) parts two items, never an INCI slash form.
            if let Some((food, additive)) = split_at_slash(item) {
                return format!("{}, {}", self.item(food), self.item(additive));
            }
            if let Some(english) = self.allergen_declaration(item) {
                return english;
            }
        }
        // A share bounded by a word after it (`대두 5% 미만`): the name, then the bound in
        // English (before it on a household list, as the detergents regulation writes bands).
        if let Some(language) = self.language.filter(|l| l.is_cjk())
            && let Some((name, bound)) = self.tables.bounded_share(language, item)
            && !name.is_empty()
        {
            let name = self.item(name);
            return if self.kind == ProductKind::Household {
                format!("{bound} {name}")
            } else {
                format!("{name} {bound}")
            };
        }
        // "And so on" after a CJK name (`アミノ酸等`, `など`): the English says it too.
        if self.language.is_some_and(Language::is_cjk)
            && let Some(name) = self.tables.without_and_so_on(item)
            && !name.trim().is_empty()
        {
            return format!("{}, etc.", self.item(name));
        }
        if let Some(whole) = self.name(item, None) {
            // A name known with its brackets (`調味料（アミノ酸等）`) keeps the "and so on".
            let etc = self.language.is_some_and(Language::is_cjk)
                && item
                    .trim_end()
                    .strip_suffix([')', '）'])
                    .and_then(|inner| self.tables.without_and_so_on(inner))
                    .is_some();
            return match whole.strip_suffix(')') {
                Some(open) if etc && !whole.ends_with("etc.)") => format!("{open}, etc.)"),
                _ => whole,
            };
        }
        // CJK labels print full-width brackets (the list splitter folds them; other callers
        // may not have).
        let item = &item.replace('（', "(").replace('）', ")");
        // Square brackets (`두부[대두, 응고제]`) are brackets too, kept as printed.
        let (opener, closer) = match (item.find('('), item.find('[')) {
            (Some(round), Some(square)) if square < round => ('[', ']'),
            (None, Some(_)) => ('[', ']'),
            _ => ('(', ')'),
        };
        let (Some(open), Some(close)) = (item.find(opener), item.rfind(closer)) else {
            return self.in_place(item).unwrap_or_else(|| item.to_owned());
        };
        if close < open {
            return item.to_owned();
        }
        // Two brackets one after the other (`グルコサミン（えび・かに由来）（国内製造）`,
        // `大豆（アメリカ又はカナダ）（遺伝子組換えでない）`): the name with its first, then each
        // further bracket's words in English.
        if let Some(first) = matching_close(item, open, opener, closer)
            && first < close
            && let Some(rest) = self.brackets_after(&item[first + opener.len_utf8()..])
        {
            return format!("{} {rest}", self.item(&item[..first + closer.len_utf8()]));
        }
        let head = item[..open].trim();
        let inner = &item[open + 1..close];
        let tail = item[close + 1..].trim();
        if let Some(english) = self.bracket_of_origins(head, inner, tail) {
            return english;
        }
        if let Some(english) = self.item_with_allergens(head, inner, tail) {
            return english;
        }
        if let Some(english) = self.latin_name_and_part(head, inner, tail) {
            return english;
        }
        let parts = rejoined(self.kb, self.language, &split_items(inner));
        // Places printed alone in a CJK bracket (`（アメリカ、カナダ）`, `（台灣）`) are origins.
        if let Some(language) = self.language.filter(|l| l.is_cjk())
            && let Some(places) = parts
                .iter()
                .map(|p| self.tables.place(language, p))
                .collect::<Option<Vec<_>>>()
            && !head.is_empty()
        {
            let mut out = format!("{} ({})", self.item(head), places.join(", "));
            if !tail.is_empty() {
                out.push(' ');
                out.push_str(tail);
            }
            return out;
        }
        let head_english = |head: &str| {
            (self.kind == ProductKind::Household)
                .then(|| self.household(head))
                .flatten()
                .or_else(|| self.name(head, Some(parts.len())))
        };
        let head = head_english(head)
            .or_else(|| self.in_place(head))
            // A share printed between a class word and its bracket (`계면활성제 18% [...]`).
            .or_else(|| {
                let (name, share) = share_after(head)?;
                Some(format!("{} {share}", head_english(name)?))
            })
            .unwrap_or_else(|| head.to_owned());
        let mut inner: Vec<String> = parts.iter().map(|part| self.inner_part(part)).collect();
        // The list splitter drops a CJK "and so on" after the last name (`アミノ酸等`): the
        // English says it.
        if self.language.is_some_and(Language::is_cjk)
            && self
                .tables
                .without_and_so_on(&item[open + 1..close])
                .is_some()
            && parts
                .last()
                .is_none_or(|p| self.tables.without_and_so_on(p).is_none())
        {
            inner.push("etc.".to_owned());
        }
        let mut out = format!("{head} {opener}{}{closer}", inner.join(", "));
        if !tail.is_empty() {
            out.push(' ');
            out.push_str(tail);
        }
        out
    }

    /// One part of a bracket after a name, in English: a phrase of the bracket words, a CJK
    /// name with a quantity, a part opening with "contains" or "including", or an item.
    fn inner_part(&self, part: &str) -> String {
        if let Some(english) = self.bracket_phrase(part) {
            return english;
        }
        // A CJK name and a quantity (`불소 1,000ppm`): the name in English.
        if self.language.is_some_and(Language::is_cjk)
            && self.name(part, None).is_none()
            && let Some((name, quantity)) = share_after(part)
            && let Some(english) = self.name(name, None)
        {
            return format!("{english} {quantity}");
        }
        match self
            .language
            .and_then(|l| self.tables.contained(l, part))
            // A name opening with the word is that name (`含水硅石`, hydrated silica).
            .filter(|_| self.name(part, None).is_none())
        {
            Some(rest) => format!("contains {}", self.item(rest)),
            None => match self.language.and_then(|l| self.tables.including(l, part)) {
                Some(rest) => format!("including {}", self.item(rest)),
                None => self.item(part),
            },
        }
    }

    /// The brackets after a name's first bracket (`（国内製造）`, `(遺伝子組換えでない)`), each
    /// with its words in English, joined by spaces; `None` when the text is not brackets
    /// alone (a tail after them stays after the last).
    fn brackets_after(&self, text: &str) -> Option<String> {
        let mut out: Vec<String> = Vec::new();
        let mut rest = text.trim_start();
        while let Some(opener) = rest.chars().next().filter(|c| matches!(c, '(' | '[')) {
            let closer = if opener == '(' { ')' } else { ']' };
            let close = matching_close(rest, 0, opener, closer)?;
            let inner = &rest[1..close];
            let parts = rejoined(self.kb, self.language, &split_items(inner));
            let english: Vec<String> = parts.iter().map(|p| self.bracket_part(p)).collect();
            out.push(format!("{opener}{}{closer}", english.join(", ")));
            rest = rest[close + 1..].trim_start();
        }
        if out.is_empty() || rest.starts_with([')', ']']) {
            return None;
        }
        if !rest.is_empty() {
            out.push(rest.to_owned());
        }
        Some(out.join(" "))
    }

    /// One part of a bracket printed after another bracket: a place, a phrase of the
    /// bracket words, or a name.
    fn bracket_part(&self, part: &str) -> String {
        if let Some(place) = self
            .language
            .filter(|l| l.is_cjk())
            .and_then(|l| self.tables.place(l, part))
        {
            return place;
        }
        self.bracket_phrase(part).unwrap_or_else(|| self.item(part))
    }

    /// A CJK bracket's part that says how the name in it is there (`コンドロイチン含有` →
    /// containing chondroitin, `フッ素として1450ppm` → 1450ppm as fluoride), in English;
    /// `None` for any other part, or when the name in it is unknown.
    fn bracket_phrase(&self, part: &str) -> Option<String> {
        let language = self.language.filter(|l| l.is_cjk())?;
        let (before, after, english) = self.tables.bracket_word(language, part)?;
        let name = (self.kind == ProductKind::Household)
            .then(|| self.household(before))
            .flatten()
            .or_else(|| self.name(before, None))?
            .to_lowercase();
        Some(
            english
                .replace("{before}", &name)
                .replace("{after}", after)
                .trim()
                .to_owned(),
        )
    }

    /// A Chinese inventory name of a plant ingredient (IECIC: `牛油果树（BUTYROSPERMUM
    /// PARKII）果脂`): the Chinese plant name, its Latin name in brackets and the part after
    /// them; the English is the Latin name and the part's English (Butyrospermum Parkii
    /// Butter). `None` when the bracket holds no Latin name or the part is unknown.
    fn latin_name_and_part(&self, head: &str, inner: &str, tail: &str) -> Option<String> {
        let language = self.language.filter(|&l| l == Language::Chinese)?;
        let latin = inner.trim();
        let is_latin = latin.contains(' ')
            && latin
                .chars()
                .all(|c| c.is_ascii_alphabetic() || matches!(c, ' ' | '-' | '.'));
        if !is_latin || head.is_empty() || head.is_ascii() {
            return None;
        }
        let part = self
            .tables
            .compound_heads(language)
            .iter()
            .find(|(printed, _)| printed == tail)
            .map(|(_, english)| english)?;
        let latin = latin
            .split_whitespace()
            .map(|word| {
                let lower = word.to_lowercase();
                let mut chars = lower.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_uppercase().chain(chars).collect()
                })
            })
            .collect::<Vec<_>>()
            .join(" ");
        Some(format!("{latin} {part}"))
    }

    /// A CJK bracket naming where a part of the item comes from (`소맥분(밀:호주산,미국산)`,
    /// `바나나농축과즙(바나나:필리핀산)`): the part, a colon and the origins in English
    /// (Wheat Flour (Wheat: Australia, USA)); `None` when the bracket is no such thing.
    fn bracket_of_origins(&self, head: &str, inner: &str, tail: &str) -> Option<String> {
        let language = self.language.filter(|l| l.is_cjk())?;
        let (part, origins) = inner.split_once([':', '：'])?;
        let mut etc = false;
        let mut origins: Vec<String> = origins
            .split([',', '、', '，'])
            .map(|o| {
                self.tables.origin(language, o.trim()).or_else(|| {
                    // The last origin with "and so on" after it (`인도산, 중국산 등`).
                    let o = self.tables.without_and_so_on(o)?;
                    etc = true;
                    self.tables.origin(language, o.trim())
                })
            })
            .collect::<Option<_>>()?;
        if etc {
            origins.push("etc.".to_owned());
        }
        let head = self.item(head);
        // Parts before the one whose origin is named (`고형분 60%, 홍삼:국산`), each in English.
        let (before, part) = part
            .rsplit_once([',', '、', '，'])
            .map_or(("", part), |(before, part)| (before, part));
        let mut parts: Vec<String> = split_items(before)
            .iter()
            .map(|p| self.inner_part(p))
            .collect();
        parts.push(
            self.name(part.trim(), None)
                .unwrap_or_else(|| part.trim().to_owned()),
        );
        let mut out = format!("{head} ({}: {})", parts.join(", "), origins.join(", "));
        if !tail.is_empty() {
            out.push(' ');
            out.push_str(tail);
        }
        Some(out)
    }

    /// The Japanese allergen declaration closing a list (`（一部に小麦・乳成分を含む）`) in
    /// English: "(Contains wheat and milk)", as the bracket after a
    /// single item is worded; `None` for any other item.
    fn allergen_declaration(&self, item: &str) -> Option<String> {
        let (open, _) = &words().japanese_declaration;
        let inner = item
            .trim()
            .strip_prefix(['(', '（'])?
            .strip_suffix([')', '）'])?
            .trim()
            .strip_prefix(open.as_str())?;
        let names = self.declared_allergens(inner)?;
        Some(format!("(Contains {})", allergen_phrase(&names)?))
    }

    /// The English names of the allergens a Japanese bracket declares (`小麦・大豆を含む`, with
    /// or without the opening `一部に`); `None` when the text does not end so or names none.
    fn declared_allergens(&self, inner: &str) -> Option<Vec<String>> {
        let (open, close) = &words().japanese_declaration;
        let inner = inner.trim();
        let inner = inner.strip_prefix(open.as_str()).unwrap_or(inner);
        let names: Vec<String> = inner
            .strip_suffix(close.as_str())?
            .split(['・', '、', ',', '，'])
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(|n| self.name(n, None).unwrap_or_else(|| n.to_owned()))
            .collect();
        (!names.is_empty()).then_some(names)
    }

    /// A Japanese allergen bracket after a single item (`しょうゆ（小麦・大豆を含む）`, 食品表示基準
    /// 別表第14: the individual declaration): the item, then "(contains wheat and soybeans)"
    /// as English labels word it; `None` for any other bracket.
    fn item_with_allergens(&self, head: &str, inner: &str, tail: &str) -> Option<String> {
        if self.language != Some(Language::Japanese) || head.is_empty() {
            return None;
        }
        let names = allergen_phrase(&self.declared_allergens(inner)?)?;
        let mut out = format!("{} (contains {names})", self.item(head));
        if !tail.is_empty() {
            out.push(' ');
            out.push_str(tail);
        }
        Some(out)
    }

    /// An item of a household list: a component with its weight band, each in English
    /// (`moins de 5 % d'agents de surface non ioniques` → less than 5 % Non-ionic surfactants),
    /// or a name written in plain English on detergents (`Aqua` → Water). `None` when the
    /// band or the name is not one the tables know.
    fn household(&self, item: &str) -> Option<String> {
        let language = self.language?;
        let (band, rest) = band_and_rest(item);
        let component = |name: &str| {
            self.tables
                .household_name(language, name)
                .map(str::to_owned)
                .or_else(|| {
                    // The detergents regulation writes the classes in the plural, and so does
                    // a class printed without a number; one printed in the singular
                    // (`tensoativo catiônico`, Brazilian labels) stays singular. Korean,
                    // Japanese and Chinese mark no plural and their translators write one.
                    self.tables.class(name).map(|(class, number)| {
                        if language.is_cjk() || number == Number::One {
                            class.one.clone()
                        } else {
                            class.many.clone()
                        }
                    })
                })
        };
        let english = component(rest)
            .or_else(|| component(self.tables.without_band_preposition(rest)))
            .or_else(|| (!band.is_empty()).then(|| self.item(rest)))?;
        if band.is_empty() {
            return Some(english);
        }
        Some(format!("{} {english}", self.tables.band(language, band)?))
    }

    /// An item whose names are printed with what is not part of them (a share, `sucre 28%`;
    /// a footnote mark, `noix de coco* 3%`) or with a class word over its items without
    /// brackets (`émulsifiant : lécithine`, `Süßungsmittel Aspartam und Acesulfam-K`): the
    /// names the list grammar finds in it are translated where they stand, the words joining
    /// the items under a class word too, and everything else stays as printed. `None` when
    /// no name in it is known (a sentence, `Peut contenir des traces de soja`, stays whole).
    fn in_place(&self, item: &str) -> Option<String> {
        let parsed = match split_ingredients(item).as_slice() {
            [one] if !one.trace && !one.declared && !one.name.is_empty() => one.clone(),
            _ => return None,
        };
        // Each name, the number of items under it when it is a class word, and whether it is
        // a class word printed before its items without a colon.
        let mut names: Vec<(&str, Option<usize>, bool)> = Vec::new();
        if !parsed.sub.is_empty() {
            // A class word the grammar reads over items printed without brackets
            // (`conservador nitrito de sódio e aroma de fumaça`) is printed bare.
            let bare = !item.contains(['(', '[']);
            names.push((
                &parsed.name,
                Some(parsed.sub.len() + self.following.get()),
                bare,
            ));
            let items = parsed.sub.iter().filter(|s| s.sub.is_empty());
            names.extend(items.map(|s| (s.name.as_str(), None, false)));
        } else {
            // Names joined by a conjunction ("lactose et protéines de lait"), each perhaps a
            // class word before its items ("sal y acidulante ácido cítrico").
            for part in self.whole_or_joined(&parsed.name) {
                match leading_class_word(part) {
                    Some(at) => {
                        let items = self.whole_or_joined(&part[at..]);
                        let contents = items.len() + self.following.get();
                        names.push((part[..at].trim_end(), Some(contents), true));
                        names.extend(items.into_iter().map(|i| (i, None, false)));
                    }
                    None => names.push((part, None, false)),
                }
            }
        }
        let (mut out, mut rest, mut translated) = (String::new(), item, false);
        let mut after_class = false;
        for (name, contents, class) in names {
            let (Some(at), Some(english)) = (rest.find(name), self.name(name, contents)) else {
                after_class = false;
                continue;
            };
            let between = &rest[..at];
            // English labels write the colon a class word printed bare before its items
            // leaves out (`acidulante ácido cítrico` → Acid: Citric Acid).
            if after_class && between.trim().is_empty() {
                out.push_str(": ");
            } else {
                out.push_str(&self.joined(between, translated));
            }
            out.push_str(&english);
            rest = &rest[at + name.len()..];
            translated = true;
            after_class = class;
        }
        if !translated {
            return None;
        }
        out.push_str(rest);
        Some(out)
    }

    /// `text` whole when it is a name (one holding a joining word is not parted at it:
    /// `Bienenwachs weiß und gelb`, `mono- e diglicéridos de ácidos gordos`), else its
    /// [`joined_items`](Self::joined_items).
    fn whole_or_joined<'t>(&self, text: &'t str) -> Vec<&'t str> {
        if self.name(text, None).is_some() {
            vec![text.trim()]
        } else {
            self.joined_items(text)
        }
    }

    /// The parts of `text` between the words that join items in the label language
    /// (`sal y azúcar` → sal, azúcar); the whole text when there is none.
    fn joined_items<'t>(&self, text: &'t str) -> Vec<&'t str> {
        let Some(language) = self.language else {
            return vec![text];
        };
        let mut parts = Vec::new();
        let (mut start, mut at) = (0, 0);
        for word in text.split(' ') {
            if at > start && self.tables.joiner(language, word).is_some() {
                parts.push(text[start..at].trim());
                start = at + word.len();
            }
            at += word.len() + 1;
        }
        parts.push(text[start..].trim());
        parts.retain(|p| !p.is_empty());
        parts
    }

    /// The text between two names: a word joining items in the label language becomes
    /// English (`und` → and) once a name before it was translated.
    fn joined(&self, between: &str, after_name: bool) -> String {
        let Some(language) = self.language.filter(|_| after_name) else {
            return between.to_owned();
        };
        between
            .split(' ')
            .map(|word| self.tables.joiner(language, word).unwrap_or(word))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The English of a name, or `None` when it is unknown or stays as printed. A function
    /// class takes its English class name, in the number printed or, where the language does
    /// not mark it, of its `contents`.
    fn name(&self, name: &str, contents: Option<usize>) -> Option<String> {
        let name = name.trim();
        // A footnote mark after the name (`Rohrohrzucker*`, organic ingredients) stays after
        // the English.
        let bare = name.trim_end_matches(['*', '†', '‡']).trim_end();
        if bare.len() < name.len() && !bare.is_empty() {
            let english = self.name(bare, contents)?;
            return Some(format!("{english}{}", &name[bare.len()..].trim_start()));
        }
        if let Some(code) = e_number_written(name) {
            return Some(code);
        }
        if let Some(language) = self.language.filter(|l| l.is_cjk())
            && let Some(source) = self.tables.derived_from(language, name)
        {
            let sources: Vec<&str> = source.split(['・', '、']).map(str::trim).collect();
            let english = |source: &str| match self.tables.derived_name(language, source) {
                Some(short) => Some(short.to_owned()),
                None => Some(self.name(source, None)?.to_lowercase()),
            };
            if sources.len() > 1 {
                // Several sources (`えび・かに由来`): from shrimp and crab.
                let names = sources
                    .into_iter()
                    .map(english)
                    .collect::<Option<Vec<String>>>()?;
                return Some(format!("from {}", allergen_phrase(&names)?));
            }
            return Some(format!("{}-derived", english(source)?));
        }
        if let Some(origin) = self
            .language
            .and_then(|language| self.tables.origin(language, name))
        {
            return Some(origin);
        }
        // A flour's grade is written after the English name (`tipo "0"` → type "0").
        if let Some(language) = self.language
            && let Some((rest, grade)) = self.tables.grade(language, name)
            && let Some(english) = self.name(rest, contents)
        {
            return Some(format!("{english} {grade}"));
        }
        // A protected name that label English translates (`basilico genovese DOP` →
        // Genovese Basil PDO); others keep the name as printed.
        if self.kind == ProductKind::Food
            && let Some((rest, mark)) = self.tables.designation(name)
            && let Some(english) = self.label_name(rest)
        {
            return Some(format!("{english} {mark}"));
        }
        if let Some(protected) = self
            .language
            .and_then(|language| self.tables.protected(language, name))
        {
            return Some(protected);
        }
        // A CJK label name says more than its class where both know it (`酸味料` is an
        // acidulant, `면류첨가알칼리제` a noodle alkaline agent).
        if self.kind == ProductKind::Food
            && self.language.is_some_and(Language::is_cjk)
            && let Some(english) = self.label_name(name)
        {
            return Some(english);
        }
        // A CJK cosmetic labelling name the INCI table names says which INCI name it is
        // (`含水ケイ酸` Hydrated Silica, whose entry is Silica), as a label name does on a food.
        if self.kind == ProductKind::Cosmetic
            && let Some(inci) = self
                .language
                .and_then(|language| self.tables.cosmetic_name(language, name))
        {
            return Some(inci.to_owned());
        }
        if self.kind == ProductKind::Food
            && let Some(vitamin) = self
                .language
                .and_then(|language| self.tables.vitamin(language, name))
        {
            return Some(vitamin);
        }
        if let Some((class, number)) = self.tables.class(name) {
            let many = match number {
                Number::One => false,
                Number::Many => true,
                Number::Unmarked => contents.is_some_and(|n| n > 1),
            };
            return Some(if many { &class.many } else { &class.one }.clone());
        }
        if self.kind == ProductKind::Food
            && let Some(english) = self.label_name(name)
        {
            return Some(english);
        }
        let Some(found) = self.resolve(name) else {
            if self.kind != ProductKind::Food
                && let Some(inci) = self
                    .language
                    .and_then(|language| self.tables.cosmetic_name(language, name))
            {
                return Some(inci.to_owned());
            }
            return self
                .language
                .and_then(|language| self.compound(name, language));
        };
        // A member of an INCI family (`Trideceth-12`, `PEG-40 Hydrogenated Castor Oil`) printed
        // in Latin script is its own INCI name: the family's name is no translation of it.
        if found.kind == MatchKind::Family && !name.chars().any(crate::text::script::is_cjk) {
            return None;
        }
        let entry = self.choose_entry(&found.entries);
        // Compared with their accents: `Tocophérol` is French for the synonym `tocopherol`.
        let printed = name.to_lowercase();
        let printed_primary = entry.primary_names().any(|n| n.to_lowercase() == printed);
        let translated = self
            .language
            .and_then(|l| entry.names.get(l.code()))
            .is_some_and(|names| names.iter().any(|n| n.to_lowercase() == printed));
        if printed_primary && !translated {
            // Already English or INCI (`Aqua`, `Parfum`, an E-number): INCI is the same in
            // every language.
            return None;
        }
        Some(match self.kind {
            // Entries whose INCI name is shared with a food entry carry "Cosmetic" to tell them
            // apart (`Hydrolyzed Collagen Cosmetic`); a label does not print it.
            ProductKind::Cosmetic => {
                let inci = self.tables.inci(&entry.name).unwrap_or(&entry.name);
                let inci = inci.strip_suffix(" Cosmetic").unwrap_or(inci);
                self.inci_by_form(name, entry, inci)
                    .unwrap_or(inci)
                    .to_owned()
            }
            ProductKind::Household => self.tables.spelled(&entry.name),
            ProductKind::Food => match self.tables.food_name(&entry.name) {
                Some(food) if entry.category == ProductCategory::Cosmetics => food.to_owned(),
                // A CJK food name known only as a cosmetic ingredient (`녹차추출물`, whose entry
                // is Camellia Sinensis Leaf Extract) is read by its parts on a food list: the
                // food's English and the part's (Green Tea Extract), not the INCI name.
                _ if entry.category == ProductCategory::Cosmetics
                    && self.language.is_some_and(Language::is_cjk) =>
                {
                    self.language
                        .and_then(|language| self.compound(name, language))
                        .unwrap_or_else(|| self.food_name(name, entry, &found))
                }
                _ => self.food_name(name, entry, &found),
            },
        })
    }

    /// A food name of the label tables (`현미` Brown Rice), or one with written modifiers: a
    /// CJK one after it (`건표고버섯` Dried Shiitake Mushroom), a European one among its words
    /// (`olive nere` Black Olives), the modifiers' English first.
    fn label_name(&self, name: &str) -> Option<String> {
        let language = self.language?;
        if let Some(english) = self.tables.label_name(language, name) {
            return Some(english.to_owned());
        }
        let key = fold(name);
        let mut modifiers: Vec<&(String, String)> =
            self.tables.modifiers(language).iter().collect();
        if !language.is_cjk() {
            // The outermost modifier is read first and written first: German prints it
            // first (`geröstete gesalzene Erdnüsse` → Roasted Salted Peanuts), the Romance
            // languages last (`œufs entiers frais` → Fresh Whole Eggs).
            let tokens: Vec<&str> = key.split(' ').collect();
            let romance = language != Language::German;
            modifiers.sort_by_key(|(phrase, _)| {
                let first = phrase.split(' ').next().unwrap_or_default();
                match tokens.iter().position(|t| *t == first) {
                    Some(at) if romance => tokens.len() - at,
                    Some(at) => at,
                    None => usize::MAX,
                }
            });
        }
        modifiers.into_iter().find_map(|(phrase, modifier)| {
            let rest = if language.is_cjk() {
                key.strip_prefix(phrase.as_str())?.trim().to_owned()
            } else {
                // A European label name with a written modifier among its words (`olive
                // nere` Black Olives, `peperoni rossi`, `feijão verde cozido`).
                let rest = strip_qualifier(&key, phrase, Some(language));
                if rest == key || rest.trim().is_empty() {
                    return None;
                }
                rest
            };
            if language.is_cjk() {
                // The rest a label name, or (after a modifier of two characters or more, when
                // the whole is no entry: `동결건조딸기`) any name the knowledge base knows.
                let english = match self.tables.label_name(language, &rest) {
                    Some(english) => english.to_owned(),
                    None if phrase.chars().count() >= 2 && self.resolve(name).is_none() => {
                        self.whole_name(&rest)?
                    }
                    None => return None,
                };
                return Some(format!("{modifier} {english}"));
            }
            // Several modifiers are read one after the other (`olive nere snocciolate`).
            let english = self.label_name(&rest)?;
            let english_words = stemmed_words(&english);
            // The label name may say the modifier already (`pomodori pelati interi`).
            if stemmed_words(modifier)
                .iter()
                .all(|w| english_words.contains(w))
            {
                return Some(english);
            }
            Some(format!("{modifier} {english}"))
        })
    }

    /// Of an entry's INCI names, the one saying the form a CJK name prints last (`추출물`,
    /// `エキス`: Extract) when the first INCI name says another (`알로에베라잎추출물` is Aloe
    /// Barbadensis Leaf Extract, whose entry is named Aloe Barbadensis Leaf Juice): the
    /// synonym ending in the form that shares most words with the first; `None` when the
    /// first says it already or no synonym does.
    fn inci_by_form(&self, printed: &str, entry: &'kb Ingredient, inci: &str) -> Option<&'kb str> {
        let language = self.language.filter(|l| l.is_cjk())?;
        let (_, form) = self
            .tables
            .compound_heads(language)
            .iter()
            .find(|(part, _)| printed.trim().ends_with(part.as_str()))?;
        let form = fold(form);
        if fold(inci).ends_with(&form) {
            return None;
        }
        let words = words_of(inci);
        entry
            .synonyms
            .iter()
            // INCI names are capitalised; a lower-case synonym is a common name (`talcum
            // powder`, `bees wax`).
            .filter(|s| {
                fold(s).ends_with(&form)
                    && !s.contains('(')
                    && s.chars().next().is_some_and(char::is_uppercase)
            })
            .max_by_key(|s| {
                let shared = words_of(s).iter().filter(|w| words.contains(w)).count();
                (shared, std::cmp::Reverse(s.len()))
            })
            .map(String::as_str)
    }

    /// A Korean, Japanese or Chinese name that is no entry but is written of known parts: an
    /// abbreviation written out (`塩化Na` is 塩化ナトリウム), or a known name followed by a part
    /// saying what is made of it (`りんごペースト` → Apple Paste, `사과농축액` → Apple
    /// Concentrate). The first part must be a whole name the knowledge base knows, so that a
    /// name sharing some characters with an entry is never read as that entry.
    fn compound(&self, name: &str, language: Language) -> Option<String> {
        if let Some(long) = self.tables.expanded(language, name) {
            return self.name(&long, None);
        }
        let name = name.trim();
        if let Some(english) = self.head_first(name, language) {
            return Some(english);
        }
        if let Some(english) = self.animal_compound(name, language) {
            return Some(english);
        }
        if let Some(english) = self.of_a_place(name) {
            return Some(english);
        }
        // German heads are listed in lower case; a hyphenated compound capitalises its last
        // part (`Schwarztee-Extrakt`).
        let key = if language == Language::German {
            name.to_lowercase()
        } else {
            name.to_owned()
        };
        self.tables
            .compound_heads(language)
            .iter()
            .find_map(|(part, head)| {
                let first = key.strip_suffix(part.as_str())?.trim();
                if first.is_empty() || self.tables.class(first).is_some() {
                    return None;
                }
                let english = if language == Language::German {
                    // A German first part may end in a linking element (`Zitrone|n|saft`,
                    // `Erbse|n|protein`): the known name without it, the longest link
                    // first (`Karotten` is Karotte, not the plural).
                    let first = first.trim_end_matches('-');
                    let mut links: Vec<&String> =
                        Lexicon::get().names.compound_links.iter().collect();
                    links.sort_by_key(|link| std::cmp::Reverse(link.len()));
                    links
                        .into_iter()
                        .filter_map(|link| first.strip_suffix(link.as_str()))
                        .filter(|f| f.chars().count() >= 3)
                        .find_map(|f| self.whole_name(f))?
                } else {
                    self.name(first, None)?
                };
                // The first part's English may say the part already (`병풀` is read as
                // Centella Asiatica Extract in a cosmetic).
                if fold(&english).ends_with(&fold(head)) {
                    return Some(english);
                }
                // A noun before another is singular in English (`花生包` Peanut Sachet, not
                // Peanuts; `酸笋包` Sour Bamboo Shoot Sachet).
                let english = if language.is_cjk() && is_plural(&english) && !english.contains('(')
                {
                    with_number(&english, false)
                } else {
                    english
                };
                Some(format!("{english} {head}"))
            })
    }

    /// The English of a name the knowledge base knows whole (never by its parts again).
    fn whole_name(&self, name: &str) -> Option<String> {
        if self.kind == ProductKind::Food
            && let Some(english) = self.label_name(name)
        {
            return Some(english);
        }
        self.resolve(name)?;
        self.name(name, None)
    }

    /// A Romance name whose head noun comes first and the food it is made of after a
    /// preposition, when the whole is no entry (`pulpe de mangue` → Mango Pulp, `polvere di
    /// carota`): the food's English, then the head's.
    fn head_first(&self, name: &str, language: Language) -> Option<String> {
        let key = fold(name);
        let prepositions = &Lexicon::get().names.prepositions;
        self.tables
            .heads_first(language)
            .iter()
            .find_map(|(head, english_head)| {
                let rest = key.strip_prefix(head.as_str())?;
                let rest = rest.strip_prefix(' ').unwrap_or(rest);
                let (_, food) = rest
                    .split_once([' ', '\'', '’'])
                    .filter(|(p, _)| prepositions.contains(*p))?;
                let english = self.whole_name(food.trim())?;
                // A head whose English goes around the food (`aroma naturale di` → Natural
                // … Flavouring) holds `{}` where the food goes.
                Some(if english_head.contains("{}") {
                    english_head.replace("{}", &english)
                } else {
                    format!("{english} {english_head}")
                })
            })
    }

    /// A known food named after a place (`Sel de Guérande` → Guérande Salt, `Piment
    /// d'Espelette`): the food is a whole entry, the place after a preposition is capitalised
    /// and names no food; the English puts the place first, as printed.
    fn of_a_place(&self, name: &str) -> Option<String> {
        let prepositions = &Lexicon::get().names.prepositions;
        let mut at = 0;
        for word in name.split_inclusive([' ', '\'', '’']) {
            let start = at;
            at += word.len();
            let bare = word.trim_end_matches([' ', '\'', '’']);
            if start == 0 || !prepositions.contains(&fold(bare)) {
                continue;
            }
            let (food, place) = (name[..start].trim(), name[at..].trim());
            let capitalised = place.chars().next().is_some_and(char::is_uppercase);
            // A share after the place (`Saucisse de Toulouse 15 %`) is no part of it.
            let share = place.chars().any(|c| c.is_ascii_digit());
            if food.is_empty() || !capitalised || share || place.split(' ').count() > 3 {
                return None;
            }
            if self.resolve(place).is_some() {
                return None;
            }
            let english = self.whole_name(food)?;
            return Some(format!("{place} {english}"));
        }
        None
    }

    /// A German compound whose first part names the animal (`Kalbsfond` → Veal Stock,
    /// `Schweinegelatine` → Pork Gelatine) when the whole is no entry.
    fn animal_compound(&self, name: &str, language: Language) -> Option<String> {
        let key = fold(name);
        self.tables
            .animals(language)
            .iter()
            .find_map(|(part, animal)| {
                let rest = key.strip_prefix(part.as_str())?;
                let rest = rest.trim_start_matches('-');
                if rest.chars().count() < 3 {
                    return None;
                }
                let english = self.whole_name(rest)?;
                Some(format!("{animal} {english}"))
            })
    }

    /// The name resolved as `/analyze` resolves it, but only by the steps that keep its whole
    /// meaning (its own name, an INCI slash part, its plural or singular, an INCI family
    /// member), directly or once the qualifiers the label language adds are set aside
    /// (`flocons d'avoine complète` is `flocons d'avoine`, complète). A name known only by
    /// its head or as a typo stays as printed (typos are mended before, by the service that
    /// read the label).
    fn resolve(&self, name: &str) -> Option<Found<'kb>> {
        let accept = |r: Option<Resolved<'kb>>| {
            r.filter(|r| {
                matches!(
                    r.kind,
                    MatchKind::Exact | MatchKind::SlashPart | MatchKind::Plural | MatchKind::Family
                )
            })
        };
        let qualifiers = self.qualifiers(name);
        if let Some(resolved) = accept(self.kb.resolve(name)) {
            let entries = entries_of(self.kb, &resolved);
            // A qualifier the knowledge base folded into the entry's name is added back.
            let added = qualifiers
                .iter()
                .filter(|(rest, _)| {
                    accept(self.kb.resolve(rest)).is_some_and(|r| {
                        entries_of(self.kb, &r)
                            .iter()
                            .any(|e| entries.iter().any(|f| std::ptr::eq(*e, *f)))
                    })
                })
                .map(|(_, english)| *english)
                .collect();
            return Some(Found {
                entries,
                kind: resolved.kind,
                added,
            });
        }
        // Without every qualifier at once (the last remainder strips them all).
        let mut added = Vec::new();
        let mut rest = fold(name);
        for (_, english) in &qualifiers {
            added.push(*english);
        }
        for (phrase, _) in self
            .language
            .map(|l| self.tables.modifiers(l))
            .unwrap_or_default()
        {
            rest = strip_qualifier(&rest, phrase, self.language);
        }
        if added.is_empty() {
            return None;
        }
        let resolved = accept(self.kb.resolve(&rest))?;
        Some(Found {
            entries: entries_of(self.kb, &resolved),
            kind: resolved.kind,
            added,
        })
    }

    /// The qualifiers printed in `name`, each with the name without it and its English.
    fn qualifiers(&self, name: &str) -> Vec<(String, &'static str)> {
        let Some(language) = self.language else {
            return Vec::new();
        };
        let key = fold(name);
        self.tables
            .modifiers(language)
            .iter()
            .filter_map(|(phrase, english)| {
                let rest = strip_qualifier(&key, phrase, Some(language));
                (rest != key && !rest.trim().is_empty()).then_some((rest, english.as_str()))
            })
            .collect()
    }

    /// Of the entries sharing a name, the first made for this kind of product.
    fn choose_entry(&self, entries: &[&'kb Ingredient]) -> &'kb Ingredient {
        let unfit = match self.kind {
            ProductKind::Food => ProductCategory::Cosmetics,
            ProductKind::Cosmetic | ProductKind::Household => ProductCategory::Food,
        };
        entries
            .iter()
            .find(|e| e.category != unfit)
            .unwrap_or(&entries[0])
    }

    /// A food name in English: of the entry's English names the one the printed words say
    /// (`pâte de cacao` → Cocoa Mass, `arôme naturel` → Natural Flavouring), with the
    /// qualifiers it lacks, in the number printed, spelled as UK/EU labels spell it.
    fn food_name(&self, printed: &str, first: &'kb Ingredient, found: &Found<'kb>) -> String {
        let (wanted, naming) = self.printed_words(printed, found);
        let stems: Vec<String> = wanted.iter().map(|w| stem(w)).collect();
        let naming: Vec<String> = naming.iter().map(|w| stem(w)).collect();
        // Most words said, then fewest words not said, then most said in the same number;
        // another food entry sharing the printed name wins only when the words that name a
        // food say more of it (`麦芽糖浆` is Glucose Syrup and Maltose Syrup: 麦芽 says maltose;
        // a qualifier such as 精炼, refined, does not choose the food).
        let naming_hits = |name: &str| {
            stemmed_words(name)
                .iter()
                .filter(|w| naming.contains(*w))
                .count()
        };
        let mut best = (&first.name, first, (0usize, usize::MAX, 0usize));
        let others = found
            .entries
            .iter()
            .copied()
            .filter(|e| e.category != ProductCategory::Cosmetics);
        for owner in std::iter::once(first).chain(others) {
            let canonical_words: Vec<String> = stemmed_words(&owner.name);
            for candidate in english_names(owner) {
                let words = stemmed_words(candidate);
                let hits = words.iter().filter(|w| stems.contains(*w)).count();
                let extra = words
                    .iter()
                    .filter(|w| !stems.contains(*w) && !canonical_words.contains(*w))
                    .count();
                let same_number = words_of(candidate)
                    .iter()
                    .filter(|w| wanted.contains(*w))
                    .count();
                // Among names saying as much, the shortest ("Maltose Syrup", not "High
                // Maltose Corn Syrup"); a name saying nothing is no better for being short.
                let short = |hits: usize, n: usize| std::cmp::Reverse(if hits > 0 { n } else { 0 });
                let score = (
                    hits,
                    std::cmp::Reverse(extra),
                    same_number,
                    short(hits, words.len()),
                );
                let current = (
                    best.2.0,
                    std::cmp::Reverse(best.2.1),
                    best.2.2,
                    short(best.2.0, stemmed_words(best.0).len()),
                );
                let better = if std::ptr::eq(owner, best.1) {
                    score > current
                } else {
                    naming_hits(candidate) > naming_hits(best.0)
                };
                if better {
                    best = (candidate, owner, (hits, extra, same_number));
                }
            }
        }
        let entry = best.1;
        // A plural or singular of one of the entry's English names is that name
        // ("Tocopherole" → tocopherols).
        if found.kind == MatchKind::Plural {
            let key = fold(printed);
            let stems = ["es", "en", "s", "e", "n"]
                .iter()
                .filter_map(|suffix| key.strip_suffix(suffix))
                .collect::<Vec<_>>();
            if let Some(candidate) =
                english_names(entry).find(|c| stems.contains(&fold(c).as_str()))
            {
                best.0 = candidate;
            }
        }
        let mut name = best.0.clone();
        let (plural, may_change) = self.number_wanted(printed, entry, found.kind);
        if let Some(plural) = plural
            && is_plural(&name) != plural
        {
            let other = english_names(entry)
                .find(|c| is_plural(c) == plural && stemmed_words(c) == stemmed_words(&name));
            match other {
                Some(other) => name = other.clone(),
                None if may_change && !(plural && self.tables.is_mass_noun(&name)) => {
                    name = with_number(&name, plural)
                }
                None => {}
            }
        }
        // A synonym written in lower case (`soy lecithins`) is written as the other names are,
        // so that the label spelling applies to it (Soya Lecithins).
        if !name.chars().any(char::is_uppercase) {
            name = capitalised(&name);
        }
        let have = stemmed_words(&name);
        let mut prefix: Vec<&str> = Vec::new();
        for english in &found.added {
            if !stemmed_words(english).iter().all(|w| have.contains(w)) && !prefix.contains(english)
            {
                prefix.push(english);
            }
        }
        // Entries whose English name is shared with a cosmetic one carry "Food" to tell them
        // apart (`Red Wine Food`); a label does not print it.
        let name = name.strip_suffix(" Food").unwrap_or(&name).to_owned();
        prefix.push(&name);
        self.tables.spelled(&prefix.join(" "))
    }

    /// The English words the printed name says (folded): all of them (its qualifiers and its
    /// words that choose among an entry's names), and those of the second kind alone.
    fn printed_words(&self, printed: &str, found: &Found<'_>) -> (Vec<String>, Vec<String>) {
        let (mut all, mut naming) = (Vec::new(), Vec::new());
        let Some(language) = self.language else {
            return (all, naming);
        };
        let key = fold(printed);
        let tokens: Vec<&str> = key.split(' ').collect();
        let substrings = language.is_cjk() || language == Language::German;
        let present = |word: &str| {
            if substrings {
                key.contains(word)
            } else {
                contains_phrase(&tokens, word)
            }
        };
        for (word, english) in self.tables.words(language) {
            if present(word) {
                naming.extend(words_of(english));
            }
        }
        for (word, english) in self.tables.modifiers(language) {
            if present(word) {
                all.extend(words_of(english));
            }
        }
        for english in &found.added {
            all.extend(words_of(english));
        }
        all.extend(naming.iter().cloned());
        (all, naming)
    }

    /// Whether the English name should be plural, and whether it may be made so when the
    /// entry has no such name: from how the name matched (a plural of a singular name), the
    /// printed word (Romance plurals in `-s`, `-x`, Italian `-i`), or, where the print does
    /// not say, whether label English writes the food in the plural (nuts, seeds).
    fn number_wanted(
        &self,
        printed: &str,
        entry: &Ingredient,
        kind: MatchKind,
    ) -> (Option<bool>, bool) {
        if kind == MatchKind::Plural {
            return (Some(!is_plural(&entry.name)), true);
        }
        let listed = self.tables.plural_in_lists(&entry.name);
        let Some(language) = self.language else {
            return (None, false);
        };
        let key = fold(printed);
        let first = key.split(' ').next().unwrap_or("");
        match language {
            Language::French | Language::Spanish | Language::Portuguese => {
                let plural = (first.ends_with('s') || first.ends_with('x'))
                    && !Lexicon::get().names.singular_in_s.contains(first);
                // A plural is made ("Fraises" → Strawberries), a singular only chosen: an
                // English mass noun stays as it is ("Avoine" → Oats).
                (Some(plural), plural)
            }
            Language::Italian if first.ends_with('i') => (Some(true), true),
            // Feminine plurals in -e (`bacche` of `bacca`, `carote`) and `uova` of `uovo`:
            // plural when the entry's Italian names hold that singular.
            Language::Italian if italian_plural_of_entry(first, entry) => (Some(true), true),
            // German: plural when the entry lists the printed form beside its singular
            // (`Sonnenblumenlecithine` beside `Sonnenblumenlecithin`).
            Language::German if german_plural_of_entry(&key, entry) => (Some(true), true),
            Language::Italian if first.ends_with('o') || first.ends_with('a') => {
                (Some(false), false)
            }
            // The print does not say: nuts and seeds are plural, other names keep the number
            // of the English name the printed words chose ("香精" → Flavouring, "オーツ麦" → Oats).
            _ if listed => (Some(true), true),
            _ => (None, false),
        }
    }
}

/// Whether a German name (folded) is the plural of another of the entry's German names: that
/// name with an ending that makes German plurals as it links compounds (`-e`, `-n`, `-en`).
fn german_plural_of_entry(key: &str, entry: &Ingredient) -> bool {
    let Some(names) = entry.names.get("de") else {
        return false;
    };
    let folded: Vec<String> = names.iter().map(fold).collect();
    folded.iter().any(|name| name == key)
        && Lexicon::get().names.compound_links.iter().any(|ending| {
            !ending.is_empty()
                && key
                    .strip_suffix(ending.as_str())
                    .is_some_and(|singular| folded.iter().any(|n| n == singular))
        })
}

/// Whether an Italian first word (folded) is the plural of a singular among the entry's
/// Italian names: `-che`/`-ghe` of `-ca`/`-ga`, `-e` of `-a`, `uova` of `uovo`.
fn italian_plural_of_entry(first: &str, entry: &Ingredient) -> bool {
    let singulars: Vec<String> = if let Some(stem) = first
        .strip_suffix("che")
        .or_else(|| first.strip_suffix("ghe"))
    {
        let hard = &first[stem.len()..stem.len() + 1];
        vec![format!("{stem}{hard}a")]
    } else if let Some(stem) = first.strip_suffix('e') {
        vec![format!("{stem}a")]
    } else if let Some(stem) = first.strip_suffix('a') {
        vec![format!("{stem}o")]
    } else {
        return false;
    };
    entry.names.get("it").is_some_and(|names| {
        names.iter().any(|name| {
            let key = fold(name);
            singulars
                .iter()
                .any(|s| key.split(' ').next() == Some(s.as_str()))
        })
    })
}

/// Where the bracket opened at `open` closes, brackets inside it counted; `None` when it
/// does not.
fn matching_close(text: &str, open: usize, opener: char, closer: char) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text[open..].char_indices() {
        if c == opener {
            depth += 1;
        } else if c == closer {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(open + at);
            }
        }
    }
    None
}

/// A name with a share or a quantity printed after it (`계면활성제 18%`, `불소 1,000ppm`): the
/// name and the quantity; `None` when it ends otherwise.
fn share_after(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    let number = LabelEnglish::get()
        .quantity_units()
        .iter()
        .find_map(|unit| text.strip_suffix(unit.as_str()))?
        .trim_end();
    let at = number
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .map_or(0, |i| {
            i + number[i..].chars().next().map_or(1, char::len_utf8)
        });
    let name = text[..at].trim_end();
    (at < number.len() && !name.is_empty()).then(|| (name, text[at..].trim()))
}

/// The allergens a Japanese declaration names, as English labels word them after
/// "contains": in lower case, the last joined by "and" (`milk, wheat and soybeans`); `None`
/// when there is none.
fn allergen_phrase(names: &[String]) -> Option<String> {
    let names: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    match names.split_last() {
        Some((last, [])) => Some(last.clone()),
        Some((last, rest)) => Some(format!("{} and {last}", rest.join(", "))),
        None => None,
    }
}

/// The two sides of the first slash outside brackets between two names written in Japanese
/// script (`バター／乳化剤`); `None` when there is none (`(ジメチコン/ビニルジメチコン)クロスポリマー`,
/// `Aqua/Water`).
fn split_at_slash(item: &str) -> Option<(&str, &str)> {
    let mut depth = 0usize;
    for (at, c) in item.char_indices() {
        match c {
            '(' | '（' => depth += 1,
            ')' | '）' => depth = depth.saturating_sub(1),
            '/' | '／' if depth == 0 => {
                let (before, after) = (item[..at].trim(), item[at + c.len_utf8()..].trim());
                let script = |s: &str| !s.is_ascii();
                return (script(before) && script(after)).then_some((before, after));
            }
            _ => {}
        }
    }
    None
}

/// `key` (folded) without the qualifier `phrase`: a whole-word phrase in Latin-script
/// languages; at the start of the name in Korean, Japanese and Chinese and of a word in
/// German compounds (`vollkornhaferflocken`), when at least three letters remain.
fn strip_qualifier(key: &str, phrase: &str, language: Option<Language>) -> String {
    let long_enough = |rest: &str| rest.chars().count() >= 2;
    match language {
        Some(l) if l.is_cjk() => match key.strip_prefix(phrase) {
            Some(rest) if long_enough(rest.trim()) => rest.trim().to_owned(),
            _ => key.to_owned(),
        },
        _ => {
            let tokens: Vec<&str> = key.split(' ').collect();
            let phrase_tokens: Vec<&str> = phrase.split(' ').collect();
            if let Some(at) = tokens
                .windows(phrase_tokens.len())
                .position(|w| w == phrase_tokens.as_slice())
            {
                let mut rest: Vec<&str> = tokens[..at].to_vec();
                rest.extend(&tokens[at + phrase_tokens.len()..]);
                return rest.join(" ");
            }
            if language == Some(Language::German) {
                let stripped: Vec<String> = tokens
                    .iter()
                    .map(|t| match t.strip_prefix(phrase) {
                        Some(rest) if rest.chars().count() >= 3 => rest.to_owned(),
                        _ => (*t).to_owned(),
                    })
                    .collect();
                return stripped.join(" ");
            }
            key.to_owned()
        }
    }
}

/// Whether the folded words of `phrase` appear in `tokens`, in order, side by side.
fn contains_phrase(tokens: &[&str], phrase: &str) -> bool {
    let phrase: Vec<&str> = phrase.split(' ').collect();
    tokens.windows(phrase.len()).any(|w| w == phrase.as_slice())
}

/// The entry's English names a label may print: the canonical name and the synonyms written in
/// words (no E/INS numbers, no slash or bracket forms, nothing in capitals only).
fn english_names(entry: &Ingredient) -> impl Iterator<Item = &String> {
    std::iter::once(&entry.name).chain(entry.synonyms.iter().filter(|s| {
        s.is_ascii()
            && !s.contains(['/', '(', ')'])
            && s.chars().any(|c| c.is_ascii_lowercase())
            && !s.starts_with("INS ")
            && e_number_like(s).is_none()
    }))
}

/// An E-number as a European label prints it (`E-450`, `E 330`, `e471`) written as English
/// labels do (E450); `None` for any other name.
fn e_number_written(name: &str) -> Option<String> {
    let rest = name.strip_prefix(['E', 'e'])?;
    let rest = rest.strip_prefix(['-', ' ']).unwrap_or(rest);
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let suffix = &rest[digits..];
    let valid = (3..=4).contains(&digits)
        && suffix.len() <= 4
        && suffix
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '(' || c == ')' || c.is_ascii_digit());
    valid.then(|| format!("E{rest}"))
}

fn e_number_like(name: &str) -> Option<()> {
    let rest = name.strip_prefix(['E', 'e'])?;
    rest.chars().next().filter(char::is_ascii_digit).map(|_| ())
}

/// The folded words of an English name.
fn words_of(name: &str) -> Vec<String> {
    fold(name)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The folded words of an English name, each without a plural `s`.
fn stemmed_words(name: &str) -> Vec<String> {
    words_of(name).iter().map(|w| stem(w)).collect()
}

/// A word without a plural `s` (`flakes` and `flake` compare equal).
fn stem(word: &str) -> String {
    match word.strip_suffix('s') {
        Some(rest) if !word.ends_with("ss") && rest.len() > 2 => rest.to_owned(),
        _ => word.to_owned(),
    }
}

/// Each word of a lower-case name with a capital initial (`soy lecithins` → Soy Lecithins).
fn capitalised(name: &str) -> String {
    name.split(' ')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect::<String>()
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether an English name is plural: its last word ends in a plural `s`.
fn is_plural(name: &str) -> bool {
    let last = name.rsplit(' ').next().unwrap_or(name).to_ascii_lowercase();
    last.ends_with('s') && !last.ends_with("ss") && !last.ends_with("us") && !last.ends_with("is")
}

/// `name` with its last word made plural or singular.
fn with_number(name: &str, plural: bool) -> String {
    // A name ending in a bracket (`Vegetable Fats (Palm, Coconut)`) says its number before it.
    if name.ends_with(')') {
        return name.to_owned();
    }
    let (head, last) = match name.rsplit_once(' ') {
        Some((head, last)) => (format!("{head} "), last),
        None => (String::new(), name),
    };
    let last = if plural {
        match last.strip_suffix('y') {
            Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{stem}ies"),
            // Potatoes, tomatoes (the food names in -o that take -es end in -ato).
            _ if last.ends_with(['s', 'x'])
                || last.ends_with("ch")
                || last.ends_with("sh")
                || last.ends_with("ato") =>
            {
                format!("{last}es")
            }
            _ => format!("{last}s"),
        }
    } else if let Some(stem) = last.strip_suffix("ies") {
        format!("{stem}y")
    } else if let Some(stem) = last.strip_suffix("es").filter(|s| {
        s.ends_with(['s', 'x']) || s.ends_with("ch") || s.ends_with("sh") || s.ends_with("ato")
    }) {
        stem.to_owned()
    } else {
        last.strip_suffix('s').unwrap_or(last).to_owned()
    };
    format!("{head}{last}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english(items: &[&str], language: Language) -> Vec<String> {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        to_english(KnowledgeBase::embedded(), &items, Some(language))
    }

    #[test]
    fn cjk_brackets_one_after_another_and_their_phrases_are_english() {
        // Two brackets after one name, a derivation from several sources, "containing",
        // a genetic-modification status and an origin alone.
        assert_eq!(
            english(
                &[
                    "グルコサミン（えび・かに由来）（国内製造）",
                    "サメ軟骨抽出物（コンドロイチン含有）",
                    "大豆（アメリカ又はカナダ）（遺伝子組換えでない）",
                    "野菜（キャベツ、たまねぎ）（国産）",
                ],
                Language::Japanese
            ),
            [
                "Glucosamine (from shrimp and crab) (made in Japan)",
                "Shark Cartilage Extract (containing chondroitin)",
                "Soybeans (USA or Canada) (not genetically modified)",
                "Vegetables (Cabbage, Onion) (Japan)",
            ]
        );
        // A content "as" its element, and a name with its quantity.
        assert_eq!(
            english(
                &[
                    "水",
                    "フッ化ナトリウム(フッ素として1450ppm)",
                    "ラウリル硫酸Na"
                ],
                Language::Japanese
            )[1],
            "Sodium Fluoride (1450ppm as fluoride)"
        );
        assert_eq!(
            english(
                &["정제수", "불화나트륨(불소 1,000ppm)", "라우릴황산나트륨"],
                Language::Korean
            )[1],
            "Sodium Fluoride (Fluoride 1,000ppm)"
        );
    }

    #[test]
    fn cjk_origins_after_other_parts_and_with_and_so_on_are_english() {
        assert_eq!(
            english(
                &[
                    "탈지대두(외국산: 인도산, 중국산 등)",
                    "홍삼농축액(고형분 60%, 홍삼:국산) 8%",
                    "블루베리과육 8%[블루베리(미국산), 설탕]",
                    "소보로토핑 22%[소맥분(밀), 설탕]",
                    "조미소고기후레이크",
                ],
                Language::Korean
            ),
            [
                "Defatted Soybeans (Imported: India, China, etc.)",
                "Red Ginseng Concentrate (Solids 60%, Red Ginseng: Korea) 8%",
                "Blueberry Pulp 8% [Blueberry (USA), Sugar]",
                "Soboro Topping 22% [Wheat Flour (Wheat), Sugar]",
                "Seasoned Beef Flakes",
            ]
        );
    }

    #[test]
    fn cjk_household_classes_with_a_share_and_included_scents_are_english() {
        assert_eq!(
            english(
                &[
                    "계면활성제 18%[음이온계(알파올레핀설폰산나트륨), 비이온계(알킬글루코사이드)]",
                    "점도조절제(염화나트륨)",
                    "천연추출물(녹차, 자몽)",
                    "향료(캡슐향 포함)",
                ],
                Language::Korean
            ),
            [
                "Surfactants 18% [Anionic (Sodium Alpha-Olefin Sulfonate), Nonionic (Alkyl glucoside)]",
                "Viscosity regulator (Sodium Chloride)",
                "Natural Extracts (Green Tea, Grapefruit)",
                "Fragrance (including encapsulated fragrance)",
            ]
        );
        // A share between the class and its bracket makes the list a household one.
        assert_eq!(
            english(&["界面活性剂 25%（烷基糖苷）", "氯化钠"], Language::Chinese),
            ["Surfactants 25% (Alkyl polyglucoside)", "Sodium Chloride"]
        );
    }

    #[test]
    fn food_classes_known_to_household_tables_leave_a_food_list_a_food_list() {
        // `色素` and `防腐剂` are household names too, and function classes of foods.
        assert_eq!(
            english(
                &["水", "糖", "色素 (150c)", "防腐剂 (202)"],
                Language::Chinese
            )[1],
            "Sugar"
        );
        let bento = english(
            &[
                "ご飯（国産米）",
                "鶏唐揚げ",
                "増粘剤（加工でん粉、キサンタン）",
                "pH調整剤",
            ],
            Language::Japanese,
        );
        assert_eq!(
            bento[..2],
            ["Cooked Rice (Japanese Rice)", "Fried Chicken (Karaage)"]
        );
    }

    #[test]
    fn cjk_cosmetic_labelling_names_make_a_cosmetic_list() {
        // Hair colour and bath salt names no entry holds vote for a cosmetic list, whose
        // names are then read from the cosmetic tables (a split name joined again).
        assert_eq!(
            english(
                &[
                    "パラアミノフェノール",
                    "トルエン-2",
                    "5-ジアミン",
                    "その他の成分",
                    "アスコルビン酸",
                    "PEG6000",
                    "黄202(1)"
                ],
                Language::Japanese
            ),
            [
                "p-Aminophenol",
                "Toluene-2,5-Diamine",
                "Other ingredients",
                "Ascorbic Acid",
                "PEG-150",
                "CI 45350"
            ]
        );
        // Toothpaste classes of the quasi-drug labelling.
        assert_eq!(
            english(
                &["湿潤剤", "清掃剤", "粘結剤", "香味剤", "保存剤"],
                Language::Japanese
            ),
            [
                "Humectant",
                "Cleaning agent",
                "Binder",
                "Flavouring agent",
                "Preservative"
            ]
        );
    }

    #[test]
    fn cjk_renderings_most_outside_writers_share_are_written() {
        // Black sesame (not the seeds), kelp (not kombu), shiitake mushroom in Korean.
        assert_eq!(
            english(&["黒ごま", "こんぶエキス", "昆布だし"], Language::Japanese),
            ["Black Sesame", "Kelp Extract", "Kelp Stock"]
        );
        assert_eq!(
            english(&["黑芝麻 12%"], Language::Chinese),
            ["Black Sesame 12%"]
        );
        assert_eq!(
            english(&["검은깨", "표고버섯분말"], Language::Korean),
            ["Black Sesame", "Shiitake Mushroom Powder"]
        );
    }

    #[test]
    fn a_cjk_compounds_first_part_is_singular_before_its_head() {
        assert_eq!(
            english(
                &["花生包（花生、大豆油）", "酸笋包（竹笋、水）"],
                Language::Chinese
            ),
            [
                "Peanut Sachet (Peanuts, Soybean Oil)",
                "Sour Bamboo Shoot Sachet (Bamboo Shoots, Water)"
            ]
        );
    }

    #[test]
    fn cjk_coagulants_and_more_additive_names_are_english() {
        assert_eq!(
            english(
                &[
                    "두부[대두(외국산), 응고제]",
                    "이노신산이나트륨",
                    "캐러멜색소"
                ],
                Language::Korean
            ),
            [
                "Tofu [Soybeans (Imported), Coagulant]",
                "Disodium Inosinate",
                "Caramel Colour"
            ]
        );
        assert_eq!(
            english(
                &["水酸化カルシウム（こんにゃく用凝固剤）", "てんさい糖"],
                Language::Japanese
            ),
            ["Calcium Hydroxide (Konjac Coagulant)", "Beet Sugar"]
        );
    }

    #[test]
    fn cjk_modifiers_of_two_characters_or_more_go_before_any_known_name() {
        assert_eq!(
            english(&["동결건조딸기", "자색고구마분말"], Language::Korean),
            ["Freeze-Dried Strawberry", "Purple Sweet Potato Powder"]
        );
        assert_eq!(
            english(&["冻干草莓", "油炸花生", "水果粉"], Language::Chinese),
            ["Freeze-Dried Strawberry", "Fried Peanuts", "Fruit Powder"]
        );
        // A one-character modifier reads only label names (`건포도` stays raisins).
        assert_eq!(english(&["건포도"], Language::Korean), ["Raisins"]);
        assert_eq!(
            english(&["いちご果肉", "紅茶エキス"], Language::Japanese),
            ["Strawberry Pulp", "Black Tea Extract"]
        );
        // 山椒 is Japanese pepper, not the Sichuan pepper (花椒) its entry is named.
        assert_eq!(
            english(&["山椒", "かんすい"], Language::Japanese),
            ["Japanese Pepper (Sansho)", "Kansui (Alkaline Agent)"]
        );
    }

    #[test]
    fn more_cjk_household_chemicals_are_english() {
        assert_eq!(
            english(
                &[
                    "계면활성제(음이온계)",
                    "보존제(메칠이소치아졸리논)",
                    "살균제(염화벤잘코늄)",
                    "황산나트륨"
                ],
                Language::Korean
            ),
            [
                "Surfactants (Anionic)",
                "Preservative (Methylisothiazolinone)",
                "Disinfectants (Benzalkonium chloride)",
                "Sodium sulfate"
            ]
        );
        assert_eq!(
            english(&["表面活性剂", "苯扎氯铵", "软水剂"], Language::Chinese),
            ["Surfactants", "Benzalkonium chloride", "Water softener"]
        );
    }

    #[test]
    fn cjk_cosmetic_plant_extracts_take_the_part_printed() {
        // Rice bran, not seed; tea leaf, not the black tea of a food list.
        assert_eq!(
            english(
                &["정제수", "쌀겨추출물", "차잎추출물", "부틸렌글라이콜"],
                Language::Korean
            )[1..3],
            [
                "Oryza Sativa Bran Extract",
                "Camellia Sinensis Leaf Extract"
            ]
        );
    }

    #[test]
    fn a_class_word_over_several_additives_holds_them_in_brackets() {
        // Printed without brackets, the class's contents are items of the list; in the
        // comma-separated English they stay under their class, in brackets.
        assert_eq!(
            english(
                &[
                    "Zucker",
                    "Säuerungsmittel: Äpfelsäure",
                    "Milchsäure",
                    "Salz"
                ],
                Language::German
            ),
            ["Sugar", "Acids (Malic Acid, Lactic Acid)", "Salt"]
        );
        assert_eq!(
            english(
                &[
                    "Conservanti: nitrito di sodio",
                    "nitrato di potassio",
                    "Emulsionante: lecitina di soia",
                    "sale"
                ],
                Language::Italian
            ),
            [
                "Preservatives (Sodium Nitrite, Potassium Nitrate)",
                "Emulsifier: Soya Lecithin",
                "Salt"
            ]
        );
    }

    #[test]
    fn cjk_food_names_take_the_english_they_say_not_their_entrys() {
        // 현미 resolves to Rice and 포도당 to the glucose syrup sharing the name; 들기름 is
        // no entry: the label names say Brown Rice, Glucose, Perilla Oil.
        assert_eq!(
            english(&["현미", "포도당", "들기름", "설탕"], Language::Korean),
            ["Brown Rice", "Glucose", "Perilla Oil", "Sugar"]
        );
        assert_eq!(
            english(&["玄米", "ぶどう糖", "植物油脂"], Language::Japanese),
            ["Brown Rice", "Glucose", "Vegetable Oil and Fat"]
        );
        assert_eq!(
            english(&["葡萄糖", "生抽", "葡萄干"], Language::Chinese),
            ["Glucose", "Light Soy Sauce", "Raisins"]
        );
        // A cosmetic list keeps INCI names: 토코페롤 is Tocopherol there too, 글리세릴스테아레이트
        // Glyceryl Stearate (not the food additive's name).
        assert_eq!(
            english(
                &[
                    "정제수",
                    "글리세릴스테아레이트",
                    "다이메티콘",
                    "페녹시에탄올"
                ],
                Language::Korean
            ),
            ["Aqua", "Glyceryl Stearate", "Dimethicone", "Phenoxyethanol"]
        );
    }

    #[test]
    fn a_name_cut_at_its_own_comma_is_joined_again() {
        // GB 2760's 单,双甘油脂肪酸酯 (mono- and diglycerides), cut by the splitter.
        assert_eq!(
            english(&["食品添加剂(单,双甘油脂肪酸酯,卡拉胶)"], Language::Chinese),
            ["Food additives (Mono- and Diglycerides of Fatty Acids, Carrageenan)"]
        );
        assert_eq!(
            english(&["白砂糖", "单", "双甘油脂肪酸酯"], Language::Chinese),
            ["White Sugar", "Mono- and Diglycerides of Fatty Acids"]
        );
        // Two known names stay two.
        assert_eq!(
            english(&["白砂糖", "食用盐"], Language::Chinese),
            ["White Sugar", "Edible Salt"]
        );
    }

    #[test]
    fn cjk_seasonings_and_textured_proteins_are_named_by_their_parts() {
        assert_eq!(
            english(&["鸡精调味料", "牛肉"], Language::Chinese),
            ["Chicken Essence Seasoning", "Beef"]
        );
        assert_eq!(
            english(&["粒状植物性たん白", "着色料(紅麹)"], Language::Japanese),
            ["Textured Vegetable Protein", "Colour (Monascus)"]
        );
        assert_eq!(
            english(&["혼합제제(탄산나트륨, 탄산칼륨)"], Language::Korean),
            ["Mixed Preparation (Sodium Carbonate, Potassium Carbonate)"]
        );
    }

    #[test]
    fn cjk_additive_classes_alone_take_their_english_class_name() {
        assert_eq!(
            english(&["설탕", "소포제", "광택제"], Language::Korean),
            ["Sugar", "Antifoaming agent", "Glazing agent"]
        );
        assert_eq!(
            english(&["砂糖", "糊料", "苦味料", "防かび剤"], Language::Japanese),
            ["Sugar", "Thickener", "Bittering agent", "Antifungal agent"]
        );
        assert_eq!(
            english(&["白砂糖", "稳定剂和凝固剂", "加工助剂"], Language::Chinese),
            ["White Sugar", "Stabiliser and coagulant", "Processing aid"]
        );
    }

    #[test]
    fn european_plant_names_in_oil_brackets_and_mass_nouns_are_english() {
        assert_eq!(
            english(
                &["pflanzliche Öle (Palm, Raps)", "Sojalecithine"],
                Language::German
            ),
            ["Vegetable oils (Palm, Rapeseed)", "Soya Lecithins"]
        );
        // Romance plurals of names English does not count stay singular.
        assert_eq!(
            english(
                &["natas", "coentros", "cogumelos", "peito de peru"],
                Language::Portuguese
            ),
            ["Cream", "Coriander", "Mushrooms", "Turkey Breast"]
        );
        assert_eq!(
            english(&["spinaci", "pomodori pelati", "ceci"], Language::Italian),
            ["Spinach", "Peeled Tomatoes", "Chickpeas"]
        );
        assert_eq!(
            english(
                &["fermentos levedantes: carbonato ácido de sódio"],
                Language::Portuguese
            ),
            ["Raising agents: Sodium Bicarbonate"]
        );
    }

    #[test]
    fn european_shares_allergen_capitals_e_numbers_and_contains_are_english() {
        // A decimal comma is an English point; capitals emphasising an allergen are read.
        assert_eq!(
            english(&["pimentón 2,5 %", "proteína de SOJA"], Language::Spanish),
            ["Paprika 2.5 %", "Soya Protein"]
        );
        assert_eq!(
            english(&["ROGGENmehl", "Käse"], Language::German),
            ["Rye Flour", "Cheese"]
        );
        // E-numbers written as English labels write them, the words between them English.
        assert_eq!(
            english(&["estabilizadores: E-450 y E-451"], Language::Spanish),
            ["Stabilisers: E450 and E451"]
        );
        assert_eq!(
            english(&["vino rosso (contiene SOLFITI)"], Language::Italian),
            ["Red Wine (contains Sulphites)"]
        );
        // A list printed all in capitals: its short words are read too, a letter before a
        // number stays.
        assert_eq!(
            english(
                &[
                    "QUEIJO (LEITE PASTEURIZADO, SAL, COALHO E CLORETO DE CÁLCIO)",
                    "VITAMINA B 12"
                ],
                Language::Portuguese
            ),
            [
                "Cheese (Pasteurised Milk, Salt, Rennet and Calcium Chloride)",
                "vitamina B 12"
            ]
        );
    }

    #[test]
    fn cjk_brackets_of_origins_square_brackets_and_sources_are_english() {
        assert_eq!(
            english(&["소맥분(밀:호주산,미국산)"], Language::Korean),
            ["Wheat Flour (Wheat: Australia, USA)"]
        );
        assert_eq!(
            english(&["두부[대두, 응고제]"], Language::Korean),
            ["Tofu [Soybeans, Coagulant]"]
        );
        assert_eq!(
            english(&["乳化剤(大豆由来)", "건표고버섯"], Language::Japanese)[0],
            "Emulsifier (soy-derived)"
        );
        assert_eq!(
            english(&["건표고버섯", "설탕"], Language::Korean),
            ["Dried Shiitake Mushroom", "Sugar"]
        );
    }

    #[test]
    fn heads_first_and_places_read_label_names_and_keep_the_share_after() {
        assert_eq!(
            english(
                &["préparation de fraise 15 % (fraises, concentré de carotte noire)"],
                Language::French
            ),
            ["Strawberry Preparation 15 % (Strawberries, Black Carrot Concentrate)"]
        );
        assert_eq!(
            english(
                &["saucisse de Toulouse 15 % (viande de porc, sel)"],
                Language::French
            ),
            ["Toulouse Sausage 15 % (Pork, Salt)"]
        );
        assert_eq!(
            english(&["Schwarztee-Extrakt (0,12 %)"], Language::German),
            ["Black Tea Extract (0.12 %)"]
        );
    }

    #[test]
    fn european_processing_words_are_written_before_the_english_name() {
        let cases: [(&[&str], Language, &[&str]); 6] = [
            (
                &["salmone affumicato", "fichi secchi"],
                Language::Italian,
                &["Smoked Salmon", "Dried Figs"],
            ),
            (
                &["cebolla deshidratada", "pan tostado"],
                Language::Spanish,
                &["Dehydrated Onion", "Toasted Bread"],
            ),
            (
                &["farinha de mandioca torrada", "salmão defumado"],
                Language::Portuguese,
                &["Toasted Cassava Flour", "Smoked Salmon"],
            ),
            (
                &["huile de palme partiellement hydrogénée"],
                Language::French,
                &["Partially Hydrogenated Palm Oil"],
            ),
            (&["geräucherter Speck"], Language::German, &["Smoked Bacon"]),
            // The outermost modifier first: Romance languages print it last.
            (
                &["œufs entiers frais", "olive nere"],
                Language::French,
                &["Fresh Whole Eggs", "olive nere"],
            ),
        ];
        for (items, language, expected) in cases {
            assert_eq!(english(items, language), expected, "{items:?}");
        }
        // A label name with a written modifier among its words.
        assert_eq!(
            english(&["olive nere", "peperoni rossi"], Language::Italian),
            ["Black Olives", "Red Peppers"]
        );
    }

    #[test]
    fn flour_grades_footnote_marks_and_bare_class_words_are_written_as_english_labels_do() {
        assert_eq!(
            english(
                &["farina di grano tenero tipo \"0\"", "sale"],
                Language::Italian
            ),
            ["Soft Wheat Flour type \"0\"", "Salt"]
        );
        assert_eq!(
            english(&["Weizenmehl Type 550", "Rohrohrzucker*"], Language::German),
            ["Wheat Flour type 550", "Raw Cane Sugar*"]
        );
        assert_eq!(
            english(&["farine de blé T65"], Language::French),
            ["Wheat Flour T65"]
        );
        // A class word printed bare before its item takes the colon English writes.
        assert_eq!(
            english(&["agua", "acidulante ácido cítrico"], Language::Spanish),
            ["Water", "Acid: Citric Acid"]
        );
        // "Including" opening a bracket's part; "contains" without its article.
        assert_eq!(
            english(
                &["aromi naturali (di cui estratto di chinotto 0,5%)"],
                Language::Italian
            ),
            ["Natural Flavourings (including Chinotto Extract 0.5%)"]
        );
        assert_eq!(
            english(&["Riesling 3 % (contient des sulfites)"], Language::French),
            ["Riesling 3 % (contains Sulphites)"]
        );
    }

    #[test]
    fn romance_forms_after_the_food_and_natural_flavourings_of_a_food_are_english() {
        assert_eq!(
            english(
                &["pera em pó", "aroma natural de ameixa"],
                Language::Portuguese
            ),
            ["Pear Powder", "Natural Plum Flavouring"]
        );
        assert_eq!(
            english(
                &["pesca in polvere", "aroma naturale di cocco"],
                Language::Italian
            ),
            ["Peach Powder", "Natural Coconut Flavouring"]
        );
    }

    #[test]
    fn european_label_names_name_what_the_entries_name_otherwise() {
        assert_eq!(
            english(
                &["cioccolato fondente", "anacardi", "latte di pecora"],
                Language::Italian
            ),
            ["Dark Chocolate", "Cashew Nuts", "Sheep's Milk"]
        );
        assert_eq!(
            english(&["garbanzos", "pimentón de la vera"], Language::Spanish),
            ["Chickpeas", "Pimentón de la Vera"]
        );
        assert_eq!(
            english(
                &["amendoim", "farinha de rosca", "pimentão"],
                Language::Portuguese
            ),
            ["Peanuts", "Breadcrumbs", "Bell Pepper"]
        );
        assert_eq!(
            english(&["Zartbitterschokolade", "Traubenzucker"], Language::German),
            ["Dark Chocolate", "Dextrose"]
        );
        assert_eq!(
            english(&["basilico genovese DOP 38%"], Language::Italian),
            ["Genovese Basil PDO 38%"]
        );
    }

    #[test]
    fn a_name_ending_in_a_bracket_is_never_given_a_plural_after_it() {
        let out = english(&["grassi vegetali (palma, cocco)"], Language::Italian);
        assert!(!out[0].ends_with(")s"), "{out:?}");
        assert_eq!(
            english(
                &["farina di grano tenero", "olive", "melanzane"],
                Language::Italian
            ),
            ["Soft Wheat Flour", "Olives", "Aubergines"]
        );
    }

    #[test]
    fn known_names_become_english_and_unknown_ones_stay() {
        let out = english(
            &["Sheabutter", "Niacinamid", "Zauberpulver"],
            Language::German,
        );
        // A cosmetic list: INCI names.
        assert_eq!(
            out,
            ["Butyrospermum Parkii Butter", "Niacinamide", "Zauberpulver"]
        );
    }

    #[test]
    fn shares_and_footnote_marks_printed_without_brackets_stay_beside_the_english() {
        let out = english(
            &[
                "sucre 28%",
                "Farine de blé 59%",
                "noix de coco* 3%",
                "Lait entier 96%",
            ],
            Language::French,
        );
        assert_eq!(
            out,
            [
                "Sugar 28%",
                "Wheat Flour 59%",
                "Coconut* 3%",
                "Whole Milk 96%"
            ]
        );
        let out = english(&["Harina de trigo 59%", "azúcar 17,8%"], Language::Spanish);
        assert_eq!(out, ["Wheat Flour 59%", "Sugar 17.8%"]);
    }

    #[test]
    fn a_class_word_over_its_items_without_brackets_is_translated_with_them() {
        let out = english(
            &[
                "émulsifiant : lécithine",
                "épaississants : gomme de guar et gomme xanthane",
            ],
            Language::French,
        );
        assert_eq!(
            out,
            [
                "Emulsifier : Lecithin",
                "Thickeners : Guar Gum and Xanthan Gum"
            ]
        );
        let out = english(
            &["Süßungsmittel Aspartam* und Acesulfam-K"],
            Language::German,
        );
        // English labels write the colon the bare class word leaves out.
        assert_eq!(out, ["Sweetener: Aspartame* and Acesulfame K"]);
    }

    #[test]
    fn sentences_and_unknown_names_with_shares_stay_as_printed() {
        let out = english(
            &["Peut contenir des traces de soja", "Zauberpulver 5%"],
            Language::French,
        );
        assert_eq!(out, ["Peut contenir des traces de soja", "Zauberpulver 5%"]);
    }

    #[test]
    fn plurals_are_translated_and_names_known_only_in_part_stay() {
        // A plural of a known name is that name, in the plural as printed; a typo-only match
        // is not translated here.
        let out = english(&["Noisettes", "Noisettes (12,5 %)"], Language::French);
        assert_eq!(out, ["Hazelnuts", "Hazelnuts (12.5 %)"]);
        let kb = KnowledgeBase::embedded();
        let typo = "Glycerim";
        assert!(kb.lookup(typo).is_none());
        assert!(matches!(
            kb.resolve(typo).map(|r| r.kind),
            Some(MatchKind::Typo) | None
        ));
        assert_eq!(english(&[typo], Language::German), [typo]);
    }

    #[test]
    fn varying_proportions_and_organic_production_are_english() {
        assert_eq!(
            english(
                &[
                    "oli vegetali in proporzione variabile (girasole, palma)",
                    "grassi vegetali (palma, cocco in proporzione variabile)",
                    "zucchero di canna biologico*",
                    "farina di grano tenero biologica",
                ],
                Language::Italian
            ),
            [
                "Vegetable Oils in varying proportions (Sunflower, Palm)",
                "Vegetable Fats (Palm, Coconut in varying proportions)",
                "Organic Cane Sugar*",
                "Organic Soft Wheat Flour",
            ]
        );
        assert_eq!(
            english(
                &[
                    "aceites vegetales en proporción variable",
                    "harina de trigo ecológica"
                ],
                Language::Spanish
            ),
            [
                "Vegetable Oils in varying proportions",
                "Organic Wheat Flour"
            ]
        );
        assert_eq!(
            english(&["sucre de canne biologique"], Language::French),
            ["Organic Cane Sugar"]
        );
        assert_eq!(
            english(
                &["Zucker aus kontrolliert biologischem Anbau"],
                Language::German
            ),
            ["Organic Sugar"]
        );
        // The words alone are no name: they stay as printed.
        assert_eq!(
            english(&["in proporzione variabile"], Language::Italian),
            ["in proporzione variabile"]
        );
    }

    #[test]
    fn everyday_european_cuts_sausages_breads_and_sweets_are_english() {
        let cases: [(&[&str], Language, &[&str]); 5] = [
            (
                &[
                    "leite integral",
                    "óleo de canola",
                    "linguiça calabresa",
                    "tripa artificial",
                ],
                Language::Portuguese,
                &[
                    "Whole Milk",
                    "Canola Oil",
                    "Calabresa Sausage",
                    "Artificial Casing",
                ],
            ),
            (
                &[
                    "morcilla",
                    "queso semicurado",
                    "citrato sódico",
                    "pan de molde",
                ],
                Language::Spanish,
                &[
                    "Black Pudding",
                    "Semi-cured Cheese",
                    "Sodium Citrate",
                    "Sliced Bread",
                ],
            ),
            (
                &["canditi", "fette biscottate", "gola di maiale", "amaretti"],
                Language::Italian,
                &["Candied Fruit", "Rusks", "Pork Jowl", "Amaretti"],
            ),
            (
                &[
                    "boudin noir",
                    "pain de mie",
                    "macarons",
                    "boyau de collagène",
                ],
                Language::French,
                &[
                    "Black Pudding",
                    "Sandwich Bread",
                    "Macarons",
                    "Collagen Casing",
                ],
            ),
            (
                &["Kuvertüre", "Lorbeer", "Blätterteig", "Schafskäse"],
                Language::German,
                &[
                    "Couverture Chocolate",
                    "Bay Leaf",
                    "Puff Pastry",
                    "Sheep's Cheese",
                ],
            ),
        ];
        for (items, language, expected) in cases {
            assert_eq!(english(items, language), expected, "{language:?}");
        }
    }

    #[test]
    fn a_bare_class_word_over_joined_items_takes_its_colon() {
        assert_eq!(
            english(
                &[
                    "bacon (carne suína, conservador nitrito de sódio e aromatizante natural de fumaça)",
                    "conservador nitrito de sódio e nitrato de sódio",
                ],
                Language::Portuguese
            ),
            [
                "Bacon (Pork, Preservative: Sodium Nitrite and Natural Smoke Flavouring)",
                "Preservative: Sodium Nitrite and Sodium Nitrate",
            ]
        );
    }

    #[test]
    fn colours_declared_with_their_origin_are_natural_or_artificial_colours() {
        assert_eq!(
            english(
                &[
                    "corante natural urucum",
                    "corante artificial tartrazina",
                    "corante caramelo IV"
                ],
                Language::Portuguese
            ),
            [
                "Natural colour: Annatto",
                "Artificial colour: Tartrazine",
                "Colour: Sulphite Ammonia Caramel"
            ]
        );
    }

    #[test]
    fn a_declaration_that_the_product_contains_an_allergen_is_english() {
        assert_eq!(
            english(
                &["farinha de trigo", "sal", "CONTÉM GLÚTEN"],
                Language::Portuguese
            ),
            ["Wheat Flour", "Salt", "contains Gluten"]
        );
        assert_eq!(
            english(&["contiene solfiti"], Language::Italian),
            ["contains Sulphites"]
        );
        // An unknown name after the word stays as printed.
        assert_eq!(
            english(&["contém xyzzy"], Language::Portuguese),
            ["contém xyzzy"]
        );
    }

    #[test]
    fn latin_american_and_brazilian_names_are_english() {
        assert_eq!(
            english(
                &[
                    "frutillas",
                    "lecitina de soya",
                    "saborizante natural",
                    "aceite de maravilla"
                ],
                Language::Spanish
            ),
            [
                "Strawberries",
                "Soya Lecithin",
                "Natural Flavouring",
                "Sunflower Oil"
            ]
        );
        assert_eq!(
            english(
                &["glicose de milho", "concentrado proteico de soro de leite"],
                Language::Portuguese
            ),
            ["Corn Syrup", "Whey Protein Concentrate"]
        );
    }

    #[test]
    fn inci_family_members_stay_as_printed() {
        let items = [
            "Aqua",
            "Cetearyl Alcohol",
            "Trideceth-12",
            "Steareth-21",
            "Parfum",
        ];
        for language in [Language::Portuguese, Language::French, Language::German] {
            assert_eq!(english(&items, language), items, "{language:?}");
        }
    }

    #[test]
    fn inci_names_stay_as_printed() {
        let out = english(&["Aqua", "Butyrospermum Parkii Butter"], Language::French);
        assert_eq!(out, ["Aqua", "Butyrospermum Parkii Butter"]);
    }

    #[test]
    fn cjk_names_are_translated() {
        let kb = KnowledgeBase::embedded();
        let expected = kb
            .lookup("小麦粉")
            .map(|i| i.name.as_str())
            .expect("the knowledge base knows 小麦粉");
        assert_eq!(english(&["小麦粉"], Language::Chinese), [expected]);
    }

    #[test]
    fn brackets_are_translated_part_by_part() {
        let out = english(&["Emulgator (Sojalecithin, 12,5 %)"], Language::German);
        assert_eq!(out, ["Emulsifier (Soya Lecithin, 12.5 %)"]);
    }

    #[test]
    fn class_names_take_the_number_printed_or_that_of_their_contents() {
        let out = english(
            &[
                "Poudres à lever (carbonate acide de sodium)",
                "Épaississant (pectine)",
            ],
            Language::French,
        );
        assert_eq!(
            out,
            ["Raising agents (Sodium Bicarbonate)", "Thickener (Pectin)"]
        );
        let out = english(
            &["膨松剂（碳酸氢钠、碳酸氢铵）", "乳化剂"],
            Language::Chinese,
        );
        assert!(out[0].starts_with("Raising agents ("), "{out:?}");
        assert_eq!(out[1], "Emulsifier");
    }

    #[test]
    fn a_cosmetic_list_is_written_with_inci_names_and_a_food_list_with_food_names() {
        let cream = [
            "Eau",
            "Glycérol",
            "Huile de tournesol",
            "Beurre de karité",
            "Alcool cétéarylique",
            "Parfum",
        ];
        let items: Vec<String> = cream.iter().map(|s| s.to_string()).collect();
        let kb = KnowledgeBase::embedded();
        assert_eq!(product_kind(kb, &items, None), ProductKind::Cosmetic);
        assert_eq!(
            english(&cream, Language::French),
            [
                "Aqua",
                "Glycerin",
                "Helianthus Annuus Seed Oil",
                "Butyrospermum Parkii Butter",
                "Cetearyl Alcohol",
                "Parfum"
            ]
        );
        let biscuit = ["Farine de blé", "Sucre", "Huile de tournesol", "Eau", "Sel"];
        let out = english(&biscuit, Language::French);
        assert_eq!(out[2], "Sunflower Oil");
        assert_eq!(out[3], "Water");
    }

    #[test]
    fn european_compounds_of_known_parts_are_read_by_their_parts() {
        assert_eq!(
            english(
                &["pulpe de mangue", "poudre de betterave"],
                Language::French
            ),
            ["Mango Purée", "Beetroot Powder"]
        );
        assert_eq!(
            english(
                &["polvere di carota", "scorza di arancia"],
                Language::Italian
            ),
            ["Carrot Powder", "Orange Peel"]
        );
        assert_eq!(
            english(
                &["Karottenpulver", "Holunderextrakt", "Kalbsfond", "Lammfond"],
                Language::German
            ),
            [
                "Carrot Powder",
                "Elderberry Extract",
                "Veal Stock",
                "Lamb Stock"
            ]
        );
        // A known food named after a place puts the place first.
        assert_eq!(
            english(
                &["Piment d'Espelette", "Jambon de Bayonne"],
                Language::French
            ),
            ["Espelette Pepper", "Bayonne Ham"]
        );
        // Nothing is invented: an unknown food stays as printed.
        assert_eq!(
            english(&["pulpe de zorglub"], Language::French),
            ["pulpe de zorglub"]
        );
    }

    #[test]
    fn italian_feminine_plurals_and_uova_are_plurals() {
        assert_eq!(
            english(
                &["bacche di ginepro", "uova", "carote", "sale"],
                Language::Italian
            ),
            ["Juniper Berries", "Eggs", "Carrots", "Salt"]
        );
    }

    #[test]
    fn protected_names_take_the_english_word_order() {
        assert_eq!(
            english(
                &["Queijo Serra da Estrela DOP", "sal"],
                Language::Portuguese
            ),
            ["Serra da Estrela PDO cheese", "Salt"]
        );
        assert_eq!(
            english(&["Prosciutto di Parma DOP", "sale"], Language::Italian),
            ["Prosciutto di Parma PDO", "Salt"]
        );
        assert_eq!(
            english(&["Allgäuer Emmentaler g.U.", "Salz"], Language::German),
            ["Allgäuer Emmentaler PDO", "Salt"]
        );
        // A mark is a mark as printed: the Portuguese preposition is none.
        assert_eq!(
            english(&["farinha do"], Language::Portuguese),
            ["farinha do"]
        );
    }

    #[test]
    fn qualifiers_are_kept_and_plurals_follow_the_print() {
        let out = english(
            &[
                "Lait entier en poudre",
                "Flocons d'avoine complète",
                "Pâte de cacao",
                "Arôme naturel",
                "Fraises",
            ],
            Language::French,
        );
        assert_eq!(
            out,
            [
                "Whole Milk Powder",
                "Wholegrain Oat Flakes",
                "Cocoa Mass",
                "Natural Flavouring",
                "Strawberries"
            ]
        );
        assert_eq!(
            english(&["정제소금", "정제수"], Language::Korean),
            ["Refined Salt", "Purified Water"]
        );
        assert_eq!(with_number("Strawberry", true), "Strawberries");
        assert_eq!(with_number("Flavourings", false), "Flavouring");
    }

    #[test]
    fn household_lists_take_the_detergents_regulation_english() {
        let out = english(
            &[
                "Aqua",
                "moins de 5 % d'agents de surface non ioniques",
                "Savon",
                "Parfum",
            ],
            Language::French,
        );
        assert_eq!(
            out,
            [
                "Water",
                "less than 5 % Non-ionic surfactants",
                "Soap",
                "Perfume"
            ]
        );
        let out = english(
            &["unter 5 % nichtionische Tenside", "Zeolithe"],
            Language::German,
        );
        assert_eq!(out, ["less than 5 % Non-ionic surfactants", "Zeolites"]);
        // A class printed in the singular (Brazilian labels) stays singular.
        let out = english(
            &[
                "Tensoativo catiônico",
                "tensoativos aniônicos",
                "conservante",
                "água",
            ],
            Language::Portuguese,
        );
        assert_eq!(
            out,
            [
                "Cationic surfactant",
                "Anionic surfactants",
                "Preservative",
                "Water"
            ]
        );
        // Brazilian functions and the chemicals of cleaning products are plain English.
        let out = english(
            &[
                "tensoativo aniônico",
                "alcalinizante",
                "tamponante",
                "cloreto de sódio",
                "hipoclorito de sódio",
            ],
            Language::Portuguese,
        );
        assert_eq!(
            out,
            [
                "Anionic surfactant",
                "Alkalising agent",
                "Buffering agent",
                "Sodium chloride",
                "Sodium hypochlorite"
            ]
        );
        let out = english(
            &[
                "5-15 % anionische Tenside",
                "Natriumpercarbonat",
                "Natriumsilikat",
            ],
            Language::German,
        );
        assert_eq!(
            out,
            [
                "5-15 % Anionic surfactants",
                "Sodium percarbonate",
                "Sodium silicate"
            ]
        );
    }

    #[test]
    fn a_class_word_unmarked_for_number_counts_the_additives_after_it() {
        let out = english(
            &["Säuerungsmittel: Äpfelsäure", "Milchsäure", "Zucker"],
            Language::German,
        );
        assert!(out[0].starts_with("Acids"), "{out:?}");
        let out = english(&["Säuerungsmittel: Äpfelsäure", "Zucker"], Language::German);
        assert!(out[0].starts_with("Acid:"), "{out:?}");
    }

    #[test]
    fn cjk_names_of_known_parts_are_read_by_their_parts() {
        // A food and what is made of it: the whole name is no entry.
        assert_eq!(
            english(&["りんごペースト", "小麦粉"], Language::Japanese),
            ["Apple Paste", "Wheat Flour"]
        );
        assert_eq!(
            english(&["유자페이스트", "설탕"], Language::Korean),
            ["Yuzu Paste", "Sugar"]
        );
        // The first part must be a whole name: an unknown one leaves the name as printed.
        assert_eq!(
            english(&["ほげほげペースト", "小麦粉"], Language::Japanese),
            ["ほげほげペースト", "Wheat Flour"]
        );
        // A salt's metal abbreviated as Japanese cosmetic labels print it.
        assert_eq!(
            english(&["水", "ラウレス硫酸Na", "ソルビン酸K"], Language::Japanese),
            ["Aqua", "Sodium Laureth Sulfate", "Potassium Sorbate"]
        );
    }

    #[test]
    fn cjk_origins_in_brackets_name_the_country() {
        assert_eq!(
            english(&["쌀(국산)", "돼지고기(미국산)"], Language::Korean),
            ["Rice (Korea)", "Pork (USA)"]
        );
        assert_eq!(
            english(&["豚肉(国産)", "大豆(中国産)"], Language::Japanese),
            ["Pork (Japan)", "Soybeans (China)"]
        );
    }

    #[test]
    fn cjk_origins_name_prefectures_provinces_and_more_countries() {
        assert_eq!(
            english(
                &["梅(和歌山県産)", "小豆(北海道産)", "砂糖(外国産)"],
                Language::Japanese
            ),
            [
                "Ume Plum (Wakayama Prefecture)",
                "Red Beans (Hokkaido)",
                "Sugar (Imported)"
            ]
        );
        assert_eq!(
            english(
                &["마늘(경북 의성산)", "쌀(국내산)", "새우(에콰도르산)"],
                Language::Korean
            ),
            [
                "Garlic (Gyeongsangbuk-do, Korea)",
                "Rice (Korea)",
                "Shrimp (Ecuador)"
            ]
        );
    }

    #[test]
    fn japanese_allergen_brackets_after_one_item_say_what_it_contains() {
        assert_eq!(
            english(
                &["しょうゆ（小麦・大豆を含む）", "ソース(一部に乳成分を含む)"],
                Language::Japanese
            ),
            [
                "Soy Sauce (contains wheat and soybeans)",
                "Sauce (contains milk)"
            ]
        );
    }

    #[test]
    fn cjk_household_lists_naming_surfactants_one_by_one_are_household_lists() {
        assert_eq!(
            english(
                &["水", "脂肪醇聚氧乙烯醚硫酸钠", "荧光增白剂", "蛋白酶"],
                Language::Chinese
            ),
            [
                "Water",
                "Sodium alcohol ethoxysulfate",
                "Optical brightener",
                "Protease"
            ]
        );
    }

    #[test]
    fn cjk_household_lists_are_in_plain_english() {
        let out = english(
            &[
                "界面活性剤(24%、アルキルエーテル硫酸エステルナトリウム)",
                "安定化剤",
                "水",
            ],
            Language::Japanese,
        );
        assert_eq!(
            out,
            [
                "Surfactants (24%, Sodium alkyl ether sulfate)",
                "Stabiliser",
                "Water"
            ]
        );
    }

    #[test]
    fn cjk_household_classes_are_singular_and_their_scent_a_fragrance() {
        // The detergents regulation's plural is English; a Korean, Japanese or Chinese
        // translator writes the class as the label does, without a plural.
        assert_eq!(
            english(
                &[
                    "정제수",
                    "음이온계면활성제",
                    "효소(프로테아제)",
                    "향료",
                    "보존제"
                ],
                Language::Korean
            ),
            [
                "Water",
                "Anionic surfactant",
                "Enzyme (Protease)",
                "Fragrance",
                "Preservative"
            ]
        );
        // European lists keep the regulation's plural.
        assert_eq!(
            english(
                &["Wasser", "anionische Tenside", "Duftstoffe"],
                Language::German
            ),
            ["Water", "Anionic surfactants", "Perfumes"]
        );
    }

    #[test]
    fn chinese_inventory_names_with_a_latin_name_take_it_and_their_part() {
        assert_eq!(
            english(
                &[
                    "水",
                    "甘油",
                    "丁二醇",
                    "牛油果树(BUTYROSPERMUM PARKII)果脂",
                    "积雪草（CENTELLA ASIATICA）提取物",
                    "苯氧乙醇"
                ],
                Language::Chinese
            ),
            [
                "Aqua",
                "Glycerin",
                "Butylene Glycol",
                "Butyrospermum Parkii Butter",
                "Centella Asiatica Extract",
                "Phenoxyethanol"
            ]
        );
    }

    #[test]
    fn everyday_cjk_names_and_inventory_names_are_known() {
        assert_eq!(
            english(&["물엿", "소맥", "돼지지방", "타피오카"], Language::Korean),
            ["Corn Syrup", "Wheat", "Pork Fat", "Tapioca"]
        );
        assert_eq!(
            english(&["小麦粉", "奶油", "白酒", "猪肠衣"], Language::Chinese),
            ["Wheat Flour", "Butter", "Baijiu", "Hog Casing"]
        );
        // Taiwan's 萃取物 is the mainland's 提取物 (extract); 玻尿酸鈉 sodium hyaluronate.
        let out = english(
            &[
                "水",
                "丁二醇",
                "甘油",
                "玻尿酸鈉",
                "金縷梅萃取物",
                "尿素",
                "苯氧乙醇",
            ],
            Language::Chinese,
        );
        assert_eq!(out[3], "Sodium Hyaluronate");
        assert_eq!(out[5], "Urea");
        // Japanese quasi-drug labelling names.
        let out = english(
            &[
                "精製水",
                "濃グリセリン",
                "1,3-ブチレングリコール",
                "パラオキシ安息香酸メチル",
            ],
            Language::Japanese,
        );
        assert_eq!(out[1..], ["Glycerin", "Butylene Glycol", "Methylparaben"]);
        // Japanese cosmetic colour names (`青1`) take the Colour Index number; a food keeps
        // the colour's name.
        assert_eq!(
            english(
                &[
                    "精製水",
                    "グリセリン",
                    "BG",
                    "フェノキシエタノール",
                    "青1",
                    "黄4"
                ],
                Language::Japanese
            ),
            [
                "Aqua",
                "Glycerin",
                "Butylene Glycol",
                "Phenoxyethanol",
                "CI 42090",
                "CI 19140"
            ]
        );
        assert_eq!(
            english(&["砂糖", "食用青色1号", "精製水"], Language::Japanese),
            ["Sugar", "Food Blue No. 1", "Purified Water"]
        );
    }

    #[test]
    fn cjk_colour_pigments_sweeteners_and_contains_brackets_are_english() {
        let out = english(
            &[
                "정제수",
                "글리세린",
                "부틸렌글라이콜",
                "황색산화철",
                "적색산화철",
                "사카린나트륨",
            ],
            Language::Korean,
        );
        assert_eq!(out[3..], ["CI 77492", "CI 77491", "Sodium Saccharin"]);
        assert_eq!(
            english(
                &[
                    "정제수",
                    "글리세린",
                    "폴리솔베이트80",
                    "솔비탄올리베이트",
                    "페녹시에탄올"
                ],
                Language::Korean
            )[2..4],
            ["Polysorbate 80", "Sorbitan Olivate"]
        );
        assert_eq!(
            english(
                &[
                    "水",
                    "グリセリン",
                    "エデト酸4Na",
                    "スクワレン",
                    "フェノキシエタノール"
                ],
                Language::Japanese
            )[2..4],
            ["Tetrasodium EDTA", "Squalene"]
        );
        assert_eq!(
            english(&["精炼棕榈油(含维生素E)", "食用盐"], Language::Chinese),
            ["Refined Palm Oil (contains Vitamin E)", "Edible Salt"]
        );
    }

    #[test]
    fn traditional_chinese_is_read_in_its_simplified_forms() {
        // Taiwan and Hong Kong labels: each name read in its simplified form; a name no form
        // makes known stays as printed, in its own characters.
        assert_eq!(
            english(
                &["麵粉", "雞蛋", "乳化劑（大豆磷脂）", "鳳梨鳳梨"],
                Language::Chinese
            ),
            [
                "Wheat Flour",
                "Egg",
                "Emulsifier (Soya Lecithin)",
                "鳳梨鳳梨"
            ]
        );
        assert_eq!(
            english(&["水", "陰離子界面活性劑", "檸檬酸鈉"], Language::Chinese),
            ["Water", "Anionic surfactant", "Sodium citrate"]
        );
    }

    #[test]
    fn japanese_conventions_are_read() {
        // The slash between the foods and the additives, and the allergen declaration.
        assert_eq!(
            english(
                &["砂糖", "バター/乳化剤", "(一部に小麦・乳成分を含む)"],
                Language::Japanese
            ),
            ["Sugar", "Butter, Emulsifier", "(Contains wheat and milk)"]
        );
    }

    #[test]
    fn cjk_bounded_shares_are_written_in_english() {
        assert_eq!(
            english(&["정제수", "대두 5% 미만"], Language::Korean),
            ["Purified Water", "Soybeans less than 5%"]
        );
        assert_eq!(
            english(&["砂糖", "食塩1%未満"], Language::Japanese),
            ["Sugar", "Salt less than 1%"]
        );
    }

    #[test]
    fn a_cjk_extract_is_named_by_the_inci_name_of_an_extract() {
        let out = english(
            &["정제수", "글리세린", "알로에베라잎추출물", "페녹시에탄올"],
            Language::Korean,
        );
        assert_eq!(out[2], "Aloe Barbadensis Leaf Extract");
    }

    #[test]
    fn english_labels_are_untouched() {
        assert_eq!(
            english(&["Wheat flour"], Language::English),
            ["Wheat flour"]
        );
    }

    #[test]
    fn cjk_vitamins_are_named_by_the_letter_printed() {
        assert_eq!(
            english(&["설탕", "비타민A", "비타민D3"], Language::Korean),
            ["Sugar", "Vitamin A", "Vitamin D3"]
        );
        assert_eq!(
            english(&["白砂糖", "维生素B2", "维生素K1"], Language::Chinese),
            ["White Sugar", "Vitamin B2", "Vitamin K1"]
        );
        // Only a letter and its number: a longer name is no vitamin's letter.
        assert_eq!(
            english(&["砂糖", "ビタミンC誘導体"], Language::Japanese),
            ["Sugar", "Vitamin C Derivative"]
        );
    }

    #[test]
    fn a_cjk_name_known_only_as_a_cosmetic_is_read_by_its_parts_on_a_food_list() {
        assert_eq!(
            english(&["설탕", "밀가루", "녹차추출물"], Language::Korean),
            ["Sugar", "Wheat Flour", "Green Tea Extract"]
        );
        // On a cosmetic list it keeps its INCI name.
        assert_eq!(
            english(
                &["정제수", "세테아릴알코올", "페녹시에탄올", "녹차추출물"],
                Language::Korean
            ),
            [
                "Aqua",
                "Cetearyl Alcohol",
                "Phenoxyethanol",
                "Camellia Sinensis Leaf Extract"
            ]
        );
    }

    #[test]
    fn cjk_cosmetic_names_no_entry_holds_take_their_inci_name() {
        assert_eq!(
            english(
                &["정제수", "세테아릴알코올", "헥실라우레이트", "페녹시에탄올"],
                Language::Korean
            ),
            [
                "Aqua",
                "Cetearyl Alcohol",
                "Hexyl Laurate",
                "Phenoxyethanol"
            ]
        );
        // The table says which INCI name where the entry's is another (Silica).
        assert_eq!(
            english(
                &["含水ケイ酸", "セテアリルアルコール", "フェノキシエタノール"],
                Language::Japanese
            ),
            ["Hydrated Silica", "Cetearyl Alcohol", "Phenoxyethanol"]
        );
        // A common name in lower case is no INCI form (`talcum powder` for 滑石粉).
        assert_eq!(
            english(&["滑石粉", "鲸蜡硬脂醇", "苯氧乙醇"], Language::Chinese),
            ["Talc", "Cetearyl Alcohol", "Phenoxyethanol"]
        );
    }

    #[test]
    fn places_alone_in_a_cjk_bracket_are_origins() {
        assert_eq!(
            english(&["大豆（アメリカ又はカナダ）", "米"], Language::Japanese),
            ["Soybeans (USA or Canada)", "Rice"]
        );
        assert_eq!(
            english(&["鳳梨（台灣）", "冬瓜"], Language::Chinese),
            ["Pineapple (Taiwan)", "Winter Melon"]
        );
        assert_eq!(
            english(&["유자 35%(고흥산)", "설탕"], Language::Korean),
            ["Yuzu 35% (Goheung, Korea)", "Sugar"]
        );
    }
}
