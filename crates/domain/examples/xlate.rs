//! scratch (not committed): translate lists read from stdin, one per line: `lang<TAB>item、item…`
use domain::knowledge::KnowledgeBase;
use domain::ocr::label::{Language, split_items};
use std::io::BufRead;
fn main() {
    let kb = KnowledgeBase::embedded();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let Some((lang, list)) = line.split_once('\t') else {
            continue;
        };
        let language = Language::from_code(lang);
        let items = split_items(list);
        let out = domain::ocr::translate::to_english(kb, &items, language);
        println!("{}\t{}", list, out.join(" | "));
    }
}
