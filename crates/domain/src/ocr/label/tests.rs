use proptest::prelude::*;

use super::*;

fn list(text: &str) -> String {
    extract(text).list
}

#[test]
fn english_header_with_colon_and_other_sections() {
    let text = "Moisturising cream\nINGREDIENTS: Aqua, Glycerin, Shea Butter,\nParfum.\nStore below 25 °C.\nMade in France";
    assert_eq!(list(text), "Aqua, Glycerin, Shea Butter, Parfum");
    assert!(extract(text).header_found);
}

#[test]
fn every_header_of_the_spec_table_is_found() {
    for (header, language) in [
        ("Ingredients:", Language::English),
        ("INGREDIENTS:", Language::English),
        ("Ingrédients:", Language::French),
        ("COMPOSITION:", Language::French),
        ("Ingredientes:", Language::Spanish),
        ("Inhaltsstoffe:", Language::German),
        ("Zutaten:", Language::German),
        ("Ingredienti:", Language::Italian),
        ("성분:", Language::Korean),
        ("전성분:", Language::Korean),
        ("成分:", Language::Japanese),
        ("全成分:", Language::Japanese),
        ("配料:", Language::Chinese),
    ] {
        let text = format!("Product 123\n{header} Aqua, Glycerin, Parfum\nNet 50 ml");
        assert_eq!(list(&text), "Aqua, Glycerin, Parfum", "{header}");
        let lower = format!("{} Aqua, Glycerin", header.to_lowercase());
        assert_eq!(list(&lower), "Aqua, Glycerin", "{header} lower case");
        let _ = language;
    }
}

#[test]
fn header_without_colon_at_line_start_and_full_width_colon() {
    assert_eq!(list("INGREDIENTS Water, Salt"), "Water, Salt");
    assert_eq!(list("配料：小麦粉、白砂糖、鸡蛋"), "小麦粉, 白砂糖, 鸡蛋");
    assert_eq!(list("成分 ： 水、グリセリン"), "水, グリセリン");
    assert_eq!(list("Zutaten : Mehl, Zucker"), "Mehl, Zucker");
}

#[test]
fn header_inside_prose_or_another_word_is_ignored() {
    let text = "Made with natural ingredients and love\nIngredients: Water, Salt";
    assert_eq!(list(text), "Water, Salt");
    // 营养成分表 is the nutrition table, not 成分.
    let text = "营养成分表\n项目 每100克\n配料：小麦粉、白砂糖\n保质期：12个月";
    assert_eq!(list(text), "小麦粉, 白砂糖");
    let text = "栄養成分表示 エネルギー 100kcal\n原材料名：小麦粉、砂糖、卵";
    assert_eq!(list(text), "小麦粉, 砂糖, 卵");
    let text = "영양성분 100g당\n전성분: 정제수, 글리세린, 향료";
    assert_eq!(list(text), "정제수, 글리세린, 향료");
}

#[test]
fn section_ends_at_another_section_in_every_language() {
    for end in [
        "Nutrition information per 100 g",
        "Best before: see lid",
        "Made in Italy",
        "Allergy advice: see bold",
        "Valeurs nutritionnelles pour 100 g",
        "À consommer de préférence avant",
        "Información nutricional",
        "Consumir preferentemente antes de",
        "Nährwerte je 100 g",
        "Mindestens haltbar bis",
        "Valori nutrizionali",
        "Da consumarsi preferibilmente",
        "Informação nutricional",
        "영양정보",
        "유통기한: 2026",
        "賞味期限：2026",
        "保质期：12个月",
        "净含量：500克",
        "Net weight 200 g",
        "Directions: apply daily",
    ] {
        let text = format!("Ingredients: Water, Salt\n{end}\nmore, text, here");
        assert_eq!(list(&text), "Water, Salt", "{end}");
    }
}

#[test]
fn section_goes_on_while_a_bracket_is_open_or_the_line_ends_with_a_comma() {
    let text =
        "Ingredients: Chocolate (sugar, cocoa butter,\nMilk powder), Salt,\nStorage jars\nNet 5 g";
    assert_eq!(
        list(text),
        "Chocolate (sugar, cocoa butter, Milk powder), Salt, Storage jars"
    );
}

#[test]
fn hyphenated_line_breaks_are_joined() {
    assert_eq!(
        list("Ingredients: Sun-\nflower oil, Cocoa-\nButter, 1,2-\nhexanediol"),
        "Sunflower oil, Cocoa-Butter, 1,2-hexanediol"
    );
}

#[test]
fn commas_in_brackets_and_decimal_commas_are_not_separators() {
    assert_eq!(
        extract("Zutaten: Milchschokolade 13,5 % (Zucker, Kakaobutter), Salz, 1,2-Hexanediol")
            .items,
        vec![
            "Milchschokolade 13,5 % (Zucker, Kakaobutter)",
            "Salz",
            "1,2-Hexanediol"
        ]
    );
}

#[test]
fn cjk_separators_are_normalised() {
    assert_eq!(list("配料：水，白砂糖、食用盐"), "水, 白砂糖, 食用盐");
    assert_eq!(
        list("原材料名：砂糖（国内製造、タイ産）、小麦粉"),
        "砂糖(国内製造, タイ産), 小麦粉"
    );
}

#[test]
fn a_full_stop_ends_the_list_but_not_an_abbreviation() {
    assert_eq!(
        list("INGREDIENTS: ALCOHOL DENAT., AQUA, PARFUM. Keep away from fire."),
        "ALCOHOL DENAT., AQUA, PARFUM"
    );
    assert_eq!(
        list("Ingredients: Alcohol Denat.\nAqua, Parfum"),
        "Alcohol Denat. Aqua, Parfum"
    );
    assert_eq!(
        list("Ingredients: Water, Salt. May contain nuts."),
        "Water, Salt"
    );
    assert_eq!(list("Ingredients: Sugar 2.5 %, Salt"), "Sugar 2.5 %, Salt");
}

#[test]
fn allergen_advice_in_the_same_paragraph_ends_the_list() {
    let text =
        "Ingredients: Wheat flour, Sugar, Eggs,\nButter.\nAllergy advice: for allergens see bold.";
    assert_eq!(list(text), "Wheat flour, Sugar, Eggs, Butter");
}

#[test]
fn without_a_header_the_most_list_like_block_is_used() {
    let text =
        "ACME Cookies\n\nWheat flour, sugar, palm oil,\nsalt, raising agent\n\nBest before 2026";
    let found = extract(text);
    assert!(!found.header_found);
    assert_eq!(
        found.list,
        "Wheat flour, sugar, palm oil, salt, raising agent"
    );
}

#[test]
fn a_cjk_header_misread_by_one_character_still_opens_the_list() {
    // Measured on noisy synthetic labels: 配料 read as 配对 and 无料 (docs/ocr.md).
    for misread in ["配对", "无料"] {
        let text = format!(
            "燕麦饼干\n营养成分表 每100克：能量 2250千焦\n{misread}：白砂糖、可可脂、全脂乳粉、\n可可液块\n保质期：12个月"
        );
        let found = extract(&text);
        assert!(found.header_found, "{misread}");
        assert_eq!(
            found.list, "白砂糖, 可可脂, 全脂乳粉, 可可液块",
            "{misread}"
        );
    }
    // Not a header: two characters off, no list after the colon, or a real header found.
    let text = "配方说明：白砂糖、可可脂、全脂乳粉\n产地：中国";
    assert!(!extract(text).header_found);
    let text = "产料：中国\n白砂糖、可可脂、全脂乳粉";
    assert!(!extract(text).header_found);
    let text = "原料：甲、乙、丙\n配料：白砂糖、可可脂、全脂乳粉";
    assert_eq!(list(text), "白砂糖, 可可脂, 全脂乳粉");
}

#[test]
fn nothing_found_gives_an_empty_list() {
    for text in ["", "   \n\n", "ACME\nBest before 2026", "1,2"] {
        assert_eq!(list(text), "", "{text:?}");
    }
}

#[test]
fn blank_lines_after_the_header_and_inside_an_open_list_are_skipped() {
    assert_eq!(
        list("Ingredients:\n\nWater, Salt,\n\nSugar\n\nMade in UK"),
        "Water, Salt, Sugar"
    );
}

#[test]
fn a_paragraph_break_inside_the_list_is_crossed() {
    assert_eq!(
        list(
            "成分：砂糖、ココアバター、ヘーゼルナッツ\n\n(12.5%)、カカオマス、香料\n\n保存方法：冷暗所"
        ),
        "砂糖, ココアバター, ヘーゼルナッツ(12.5%), カカオマス, 香料"
    );
    assert_eq!(
        list("Ingredients: Water, Salt\n\nMade with love, care, and joy"),
        "Water, Salt"
    );
    assert_eq!(
        list("Ingredients: Water, Salt.\n\nsugar, more, items"),
        "Water, Salt"
    );
}

#[test]
fn specks_read_as_quotes_and_colons_are_dropped() {
    assert_eq!(
        list(
            "Ingredienti: Farina di: frumento, Olio di ‘palma, Alcol:cetilstearilico, Sciroppo\n‘invertito, Sale."
        ),
        "Farina di frumento, Olio di palma, Alcol cetilstearilico, Sciroppo invertito, Sale"
    );
    // Tortoise-shell brackets hold their commas like any other, written `()`.
    assert_eq!(
        split_items("しょうゆ〔大豆、小麦を含む〕、砂糖"),
        ["しょうゆ(大豆, 小麦を含む)", "砂糖"]
    );
    // A function class's colon is printed, whatever the case of its contents.
    assert_eq!(
        split_items("Harina de trigo, Espesante: goma xantana, acidulante: ácido cítrico"),
        [
            "Harina de trigo",
            "Espesante: goma xantana",
            "acidulante: ácido cítrico"
        ]
    );
}

#[test]
fn cjk_ocr_artefacts_are_mended() {
    assert_eq!(
        list(
            "成分：膨張剤（炭酸 水素 ナトリウム、炭酸水素 アン モニ ウム）、香料\nアレ ルギー：小麦"
        ),
        "膨張剤(炭酸水素ナトリウム, 炭酸水素アンモニウム), 香料"
    );
    assert_eq!(
        list("성분: 귀리 플레이크 (45%0), 설탕"),
        "귀리 플레이크 (45%), 설탕"
    );
    assert_eq!(
        list("Ingredients: Hazelnuts {12,5 %), Salt"),
        "Hazelnuts (12,5 %), Salt"
    );
}

#[test]
fn per_cent_signs_read_as_digits_are_mended_where_the_figure_cannot_be_meant() {
    assert_eq!(
        list("성분: 귀리 플레이크(4590), 헤이즐넛(12.596), 밀가루(459%), 설탕"),
        "귀리 플레이크(45%), 헤이즐넛(12.5%), 밀가루(45%), 설탕"
    );
    // Plausible figures stay as printed.
    assert_eq!(
        list(
            "Ingredients: Hazelnuts (12.95%), Salt (2.5), Sugar (1000), Milk (E 4590), Oil (2.09%)"
        ),
        "Hazelnuts (12.95%), Salt (2.5), Sugar (1000), Milk (E 4590), Oil (2.09%)"
    );
}

#[test]
fn the_cjk_per_cent_sign_read_as_9_percent_is_mended() {
    // `（12.5％）` read `(12.59%)`, `(12.59%%)`, `(12:59%)` on the CJK chocolate labels.
    assert_eq!(
        list("成分：ヘーゼルナッツ(12.59%)、カカオマス"),
        "ヘーゼルナッツ(12.5%), カカオマス"
    );
    assert_eq!(
        list("配料：榛子 (12.59%%)、可可液块、全脂乳粉 (12:59%)"),
        "榛子 (12.5%), 可可液块, 全脂乳粉 (12.5%)"
    );
    // Small print: `％` read as `916`.
    assert_eq!(
        list("成分：オーツ麦 (45916)、ヘーゼルナッツ (12.5916)、砂糖"),
        "オーツ麦 (45%), ヘーゼルナッツ (12.5%), 砂糖"
    );
    // The opening bracket lost before a misread share.
    assert_eq!(
        list("성분: 설탕, 헤이즐넛 12.590), 코코아매스"),
        "설탕, 헤이즐넛 (12.5%), 코코아매스"
    );
    // 7 pt at 150 dpi: `%` read as `94`, `)` as `|`.
    assert_eq!(
        list(
            "성분: 귀리플레이크 (4594), 헤이즐넛 (12.596|, 코코아매스, 유화제 (대두레시틴)\n영양정보 100 g당"
        ),
        "귀리플레이크 (45%), 헤이즐넛 (12.5%), 코코아매스, 유화제 (대두레시틴)"
    );
    // A misread square bracket closed by a round one, or the other way round.
    assert_eq!(
        list("성분: 귀리플레이크 [4590), 유화제 (대두레시틴], 설탕 [국산]"),
        "귀리플레이크 (45%), 유화제 (대두레시틴), 설탕 [국산]"
    );
    // A footnote mark keeps its lone bracket.
    assert_eq!(list("Zutaten: Zucker 1), Salz"), "Zucker 1), Salz");
}

#[test]
fn cjk_specks_and_separators_misread_as_other_marks_are_mended() {
    // A speck read as a hyphen at a line start inside `膨張剤`; a bullet read before an item.
    assert_eq!(
        list("成分：水あめ、膨\n- 張剤（炭酸水素ナトリウム）、・オーツ麦、食塩"),
        "水あめ, 膨張剤(炭酸水素ナトリウム), オーツ麦, 食塩"
    );
    // `、` read as a colon between two names; Latin colons are no separators.
    assert_eq!(
        list("配料：白砂糖、食用盐 : 食用香精"),
        "白砂糖, 食用盐, 食用香精"
    );
    assert_eq!(
        list("Ingredients: Sugar, Colour: E150, Salt - sea"),
        "Sugar, Colour: E150, Salt - sea"
    );
}

#[test]
fn a_cjk_section_keyword_misread_by_one_character_still_ends_the_list() {
    assert_eq!(
        list("成分：砂糖、バニラ抽出\n物\n貯養成分表示 100g当たり：エネルギー 540kcal"),
        "砂糖, バニラ抽出物"
    );
    assert_eq!(
        list("配料：可可液块、香兰\n区存条件：阴凉干燥处保存"),
        "可可液块, 香兰"
    );
    // Without a colon, or a short keyword one character off: part of the list.
    assert_eq!(
        list("成分：砂糖、\n保存料（ソルビン酸）、食塩"),
        "砂糖, 保存料(ソルビン酸), 食塩"
    );
    assert_eq!(
        list("配料：小麦粉、\n区存条件好的面粉、盐"),
        "小麦粉, 区存条件好的面粉, 盐"
    );
}

#[test]
fn double_angle_marks_read_for_brackets_do_not_swallow_the_list() {
    assert_eq!(
        list("配料：燕麦片 (《45%)、小麦粉、膨松剂《碳酸氢钠、碳酸氢铵》、食用盐\n保质期：12个月"),
        "燕麦片 (45%), 小麦粉, 膨松剂(碳酸氢钠, 碳酸氢铵), 食用盐"
    );
}

#[test]
fn the_first_list_printed_wins_on_a_multilingual_label() {
    let text = "Zutaten: Wasser, Salz\nIngredients: Water, Salt\nIngrédients: Eau, Sel";
    assert_eq!(list(text), "Wasser, Salz");
    let chinese = "配料：小麦粉、白砂糖、食用盐\nIngredients: Wheat flour, Sugar, Salt.";
    assert_eq!(list(chinese), "小麦粉, 白砂糖, 食用盐");
}

#[test]
fn the_language_is_the_returned_lists() {
    // Read from a pack with the same list in Portuguese under the Italian one: the second
    // list's words made the whole text read as Portuguese.
    let text = "BISCOTTI ALL'AVENA\nIngredienti: Fiocchi d'avena integrale (45 %), Farina di\n\
                frumento, Zucchero, Olio di palma, Sciroppo di zucchero\ninvertito, Agenti \
                lievitanti (bicarbonato di sodio,\nbicarbonato d'ammonio), Sale, Aroma \
                naturale.\nIngredientes: Flocos de aveia integral (45 %), Farinha de\ntrigo, \
                Açúcar, Óleo de palma, Xarope de açúcar invertido,\nLevedantes (bicarbonato \
                de sódio, bicarbonato de amónio),\nSal, Aroma natural.\nPeso netto: 300 g";
    let found = extract(text);
    assert_eq!(found.items[0], "Fiocchi d'avena integrale (45 %)");
    assert_eq!(found.language, Some(Language::Italian));
    let english_first = "Ingredients: Wheat flour, Sugar, Salt.\nIngrédients : farine de \
                         blé, sucre, sel, huile de tournesol, lait, beurre, eau.";
    assert_eq!(extract(english_first).language, Some(Language::English));
}

#[test]
fn a_blurred_comma_read_as_a_full_stop_does_not_end_the_list() {
    // Motion blur: commas read as full stops. What follows is more items (a comma among
    // them, or a known name), so the list goes on to its real end.
    assert_eq!(
        list(
            "Ingrédients : Flocons d'avoine complète (45 %). Farine de\nblé, Sucre, Huile de \
             palme, Sirop de sucre inverti, Poudres à\nlever (carbonate acide de sodium, \
             carbonate acide\nd'ammonium). Sel, Arome naturel.\nAllergènes : voir les \
             ingrédients en gras."
        ),
        "Flocons d'avoine complète (45 %), Farine de blé, Sucre, Huile de palme, Sirop de \
         sucre inverti, Poudres à lever (carbonate acide de sodium, carbonate acide \
         d'ammonium), Sel, Arome naturel"
    );
    assert_eq!(
        list(
            "Zutaten: Vollkornhaferflocken (45 %). Weizenmehl, Zucker,\nPalmöl, \
             Invertzuckersirup. Backtriebmittel\n(Natriumcarbonate, Ammoniumcarbonate). \
             Salz,\nNatürliches Aroma.\nAllergene: siehe fett gedruckte Zutaten."
        ),
        "Vollkornhaferflocken (45 %), Weizenmehl, Zucker, Palmöl, Invertzuckersirup, \
         Backtriebmittel (Natriumcarbonate, Ammoniumcarbonate), Salz, Natürliches Aroma"
    );
    // A known name alone after the stop, then the real end.
    assert_eq!(
        list("Ingredients: Water, Glycerin. Sugar.\nStore in a cool place."),
        "Water, Glycerin, Sugar"
    );
}

#[test]
fn a_bracket_left_open_by_a_misread_stops_at_the_next_section() {
    assert_eq!(
        list(
            "Ingredientes: Farinha de trigo, Levedantes (bicarbonato de amóniol,\nSal, Aroma \
             natural.\nAlergénios: ver ingredientes a negrito.\nPeso líquido: 300 g"
        ),
        "Farinha de trigo, Levedantes (bicarbonato de amóniol, Sal, Aroma natural"
    );
}

#[test]
fn a_latin_header_one_letter_off_opens_the_list() {
    let found = extract(
        "BISCUITS À L'AVOINE\nIngedients: Flocons d'avoine (45 %), Farine de blé, Sucre.\n\
         Allergènes : voir les ingrédients en gras.",
    );
    assert!(found.header_found);
    // Which header was misread is not known: the list's words tell the language.
    assert_eq!(found.header_language, None);
    assert_eq!(found.language, Some(Language::French));
    assert_eq!(found.list, "Flocons d'avoine (45 %), Farine de blé, Sucre");
    assert_eq!(
        list("Zutaen: Weizenmehl, Zucker, Salz"),
        "Weizenmehl, Zucker, Salz"
    );
    // The capital I read as a stroke; the last item's second word on the next line is kept.
    assert_eq!(
        list("Face cream\n/NGREDIENTS: Aqua, Glycerin, Parfum, Citric\nAcid.\nMade in UK"),
        "Aqua, Glycerin, Parfum, Citric Acid"
    );
    // Two letters off a long header, before a list of three items or more.
    assert_eq!(
        list("Igedients: Aqua, C12-15 Alkyl Benzoate, Glycerin.\nMade in EU"),
        "Aqua, C12-15 Alkyl Benzoate, Glycerin"
    );
    assert_eq!(
        list("Zusamensetzng: Viskose, Polyester, Klebstoff"),
        "Viskose, Polyester, Klebstoff"
    );
    // The list's separators on the next line count (a long first item breaks early).
    assert_eq!(
        list(
            "Igedients: Aqua, C12-15 Alkyl Benzoate Ethylhexyl\nMethoxycinnamate, Sorbitol, Glycerin"
        ),
        "Aqua, C12-15 Alkyl Benzoate Ethylhexyl Methoxycinnamate, Sorbitol, Glycerin"
    );
    // Two letters off before a short list, two letters off a short header, three letters
    // off, a short word, ordinary words before a list, or no list after the colon: not a
    // header.
    for text in [
        "Ingrdints: Water, Salt",
        "Zutan: Weizenmehl, Zucker, Salz",
        "Ingrdnts: Water, Salt, Sugar, Oil",
        "Nutrients: Energy 300 kJ, Fat 5 g",
        "Nutrients: Energy 300 kJ, Fat 5 g, Salt 1 g",
        "Directions: shake, apply, rinse, repeat",
        "Conditions: cool, dry, dark",
        "Ingedients: see the side",
    ] {
        assert!(!extract(text).header_found, "{text}");
    }
}

#[test]
fn a_real_sentence_after_a_list_still_ends_it() {
    for (text, expected) in [
        (
            "Ingredients: Sugar, Cocoa butter, Milk powder. Gluten free. Vegan.",
            "Sugar, Cocoa butter, Milk powder",
        ),
        (
            "INGREDIENTS: Aqua, Glycerin, Parfum. Dermatologically tested, for all skin types.",
            "Aqua, Glycerin, Parfum",
        ),
        (
            "Ingredients: Wheat flour, Sugar, Emulsifier (soy). Contains wheat, soy.",
            "Wheat flour, Sugar, Emulsifier (soy)",
        ),
        (
            "Ingredients: Water, Sugar. Best served chilled, shake well.",
            "Water, Sugar",
        ),
        (
            "INGREDIENTS: Aqua, Glycerin. See the base of the pack, keep away from eyes.",
            "Aqua, Glycerin",
        ),
        (
            "Ingredients: Water, Salt.\n\nSugar, Flour, Eggs",
            "Water, Salt",
        ),
        (
            "Zutaten: Zucker, Kakaobutter. Kann Spuren von Nüssen enthalten, Haselnüsse.",
            "Zucker, Kakaobutter",
        ),
        (
            "Ingrédients : farine, sucre. Fabriqué en France, pour Carrefour.",
            "farine, sucre",
        ),
        (
            "Ingredientes: harina, azúcar. Consumir preferentemente antes de, ver lateral.",
            "harina, azúcar",
        ),
        (
            "Ingredients: Milk, Cream. Nutrition: Energy 300 kJ, Fat 5 g.",
            "Milk, Cream",
        ),
    ] {
        assert_eq!(list(text), expected, "{text}");
    }
}

#[test]
fn spaces_ocr_puts_between_cjk_characters_are_dropped() {
    assert_eq!(
        list("전 성 분: 정 제 수, 코 코 아 버 터, 귀리 플 레 이 크"),
        "정제수, 코코아버터, 귀리플레이크"
    );
    assert_eq!(list("配 料 : 小 麦 粉 、 白 砂糖"), "小麦粉, 白砂糖");
    // Words of two or more syllables keep their space.
    assert_eq!(list("성분: 헤이즐넛 밀크, 설탕"), "헤이즐넛 밀크, 설탕");
}

#[test]
fn hangul_split_by_nfd_is_recombined() {
    let nfd: String = "성분: 정제수, 글리세린".nfd().collect();
    assert_eq!(list(&nfd), "정제수, 글리세린");
}

#[test]
fn languages_are_detected() {
    for (text, code) in [
        ("Ingredients: Water, Sugar, Salt and oil", "en"),
        (
            "Ingrédients : farine de blé, sucre, huile de tournesol, sel",
            "fr",
        ),
        (
            "Ingredientes: harina de trigo, azúcar, aceite de girasol, sal",
            "es",
        ),
        ("Zutaten: Weizenmehl, Zucker, Sonnenblumenöl, Salz", "de"),
        (
            "Ingredienti: farina di grano, zucchero, olio di girasole, sale",
            "it",
        ),
        (
            "Ingredientes: farinha de trigo, açúcar, óleo de girassol, sal",
            "pt",
        ),
        ("성분: 정제수, 글리세린, 향료", "ko"),
        ("全成分：水、グリセリン、ＢＧ、香料", "ja"),
        ("配料：小麦粉、白砂糖、植物油", "zh"),
    ] {
        assert_eq!(
            detect_language(text).map(Language::code),
            Some(code),
            "{text}"
        );
    }
    assert_eq!(detect_language("12 34"), None);
}

#[test]
fn language_codes_round_trip() {
    for language in Language::ALL {
        assert_eq!(Language::from_code(language.code()), Some(language));
    }
}

proptest! {
    #[test]
    fn extract_never_panics(text in "\\PC{0,400}") {
        let found = extract(&text);
        prop_assert_eq!(found.items.join(", "), found.list);
    }

    #[test]
    fn extract_never_panics_on_label_like_text(
        text in "(Ingredients|成分|配料|Zutaten|전성분)?[:：]?[ a-zA-Z0-9,、，.()（）\\[\\]\n:-]{0,200}"
    ) {
        let found = extract(&text);
        for item in &found.items {
            prop_assert!(!item.is_empty());
            prop_assert!(!item.starts_with(' ') && !item.ends_with(' '));
        }
    }

    #[test]
    fn a_printed_list_comes_back_item_for_item(
        items in proptest::collection::vec("[A-Z][a-z]{2,10}( [a-z]{2,8})?", 1..12)
    ) {
        // A last word that is an abbreviation keeps its full stop by design
        // (`a_full_stop_ends_the_list_but_not_an_abbreviation`): "Aaa cf." is not a counterexample.
        let last_word = items.last().and_then(|i| i.split(' ').next_back()).unwrap_or_default();
        prop_assume!(!crate::grammar::words().abbreviations.contains(&last_word.to_lowercase()));
        let text = format!("Product\nIngredients: {}.\nBest before: 2026", items.join(", "));
        prop_assert_eq!(extract(&text).items, items);
    }

    #[test]
    fn split_items_keeps_every_letter(list in "[a-z ,()、]{0,80}") {
        let letters = |s: &str| s.chars().filter(char::is_ascii_alphabetic).collect::<String>();
        let items = split_items(&list);
        prop_assert_eq!(letters(&items.concat()), letters(&list));
    }
}

#[test]
fn a_header_in_several_languages_joined_by_slashes_is_one_header() {
    // A plaster's trilingual header: the list starts after the last one, in the first's
    // language.
    let found = extract(
        "Zusammensetzung/Composition/Composizione:\nMineralöl, Absorber, synthetischer Kleber",
    );
    assert_eq!(
        found.items,
        ["Mineralöl", "Absorber", "synthetischer Kleber"]
    );
    assert_eq!(found.header_language, Some(Language::German));
    let found = extract("Zutaten / Ingrédients / Ingredienti: Zucker, Salz");
    assert_eq!(found.items, ["Zucker", "Salz"]);
    // A slash after a header followed by no other header is the list's.
    assert_eq!(
        extract("Zutaten: Zucker/Glukosesirup, Salz").items,
        ["Zucker/Glukosesirup", "Salz"]
    );
}

#[test]
fn a_footnote_read_into_the_list_ends_it() {
    assert_eq!(
        extract("Zutaten: Reis* 93 %, Wasser *aus biologischer Landwirtschaft").items,
        ["Reis* 93 %", "Wasser"]
    );
    assert_eq!(
        extract("Zutaten: Äpfel* *aus biologischer Landwirtschaft, Zucker").items,
        ["Äpfel*"]
    );
    // Marks at the end of a word or opening an item are the list's own (the splitter keeps
    // a name's mark as printed and sets a bullet aside); the list goes on after them.
    assert_eq!(
        extract("Ingrédients : sucre*, *vanille, sel. *issu de l'agriculture biologique").items,
        ["sucre*", "vanille", "sel"]
    );
}

#[test]
fn a_header_band_ends_the_list_above_it() {
    // Each language's list under a band of its own, without a colon; the list above ends
    // with a comma or an open bracket read at its end.
    for (text, expected) in [
        (
            "ZUTATEN\nWeizenmehl, Zucker, Salz,\nINGRÉDIENTS\nFarine de blé, sucre, sel",
            "Weizenmehl, Zucker, Salz",
        ),
        (
            "Zutaten: Weizenmehl, Zucker (Rohr,\nIngrédients :\nFarine de blé, sucre",
            "Weizenmehl, Zucker (Rohr",
        ),
        (
            "INGREDIENTS\nWater, Glycerin,\nZUTATEN / INGRÉDIENTS\nWasser, Glycerin",
            "Water, Glycerin",
        ),
    ] {
        let found = extract(text);
        assert!(found.header_found, "{text}");
        assert_eq!(found.list.trim_end_matches(','), expected, "{text}");
    }
    // A header word inside a list line is not a band: the list goes on.
    assert_eq!(
        list("Ingredients: Water,\nIngredient list sugar, Salt"),
        "Water, Ingredient list sugar, Salt"
    );
}

#[test]
fn a_code_between_the_header_and_its_colon_is_part_of_the_header() {
    assert_eq!(
        list("INGREDIENTS 10-1.05: Cocos Nucifera Oil*, Sodium Bicarbonate, Tocopherol"),
        "Cocos Nucifera Oil*, Sodium Bicarbonate, Tocopherol"
    );
    // Words before the colon are not a code: the header without a colon starts the list.
    assert_eq!(
        list("INGREDIENTS see below: Water, Salt"),
        "see below: Water, Salt"
    );
}

#[test]
fn a_footnote_mark_read_as_a_quote_ends_a_marked_list() {
    assert_eq!(
        list(
            "Ingredients: Cocos Nucifera Oil*, Linalool**, Coumarin**\n\"Organic, **Component of natural fragrance"
        ),
        "Cocos Nucifera Oil*, Linalool**, Coumarin**"
    );
    // In a list without marks a quote is text.
    assert_eq!(
        list("Ingredients: Water, Salt, \"Natural\" flavour"),
        "Water, Salt, \"Natural\" flavour"
    );
}

#[test]
fn a_header_cut_at_the_packs_edge_opens_the_list_when_known_names_follow() {
    // The first letters of `Zutaten:` lost where a tube bends away, broken in two or not.
    let mustard = "60-171605-2\nMindestens haltbar bis Ende:\n\
                   sen ten: Apfelessig*, Wasser, Senfkörner*21,7%,\n\
                   Salz, Rohrzucker*, Kurkuma*.\n\
                   Senap nti: aceto di mele*, acqua, semi di senape";
    let found = extract(mustard);
    assert!(found.header_found);
    assert_eq!(found.items[..2], ["Apfelessig*", "Wasser"]);
    assert_eq!(found.language, Some(Language::German));
    // One known food and how it was made, after what is left of the header.
    let peanut = "haltbar bis: siehe Deckel\nnaten: Erdnüsse* geröstet\n\
                  dierts: cacahuètes* grillées";
    let found = extract(peanut);
    assert!(found.header_found);
    assert_eq!(found.items, ["Erdnüsse* geröstet"]);
    // Printed before the first header read whole: the first list printed.
    let found = extract(
        "lngT dents: Zucker, Kakaobutter, Vollmilchpulver.\n\nIngredienti: zucchero, burro",
    );
    assert_eq!(found.items, ["Zucker", "Kakaobutter", "Vollmilchpulver"]);
    // Words that end like a header but open no list of known names.
    for text in [
        "Verwendung: kühl und trocken lagern, vor Licht schützen",
        "Distribution: Migros-Genossenschafts-Bund, CH-8031 Zürich",
        "Mindestens haltbar bis Ende: 01.06.25",
    ] {
        assert!(!extract(text).header_found, "{text}");
    }
    // Unknown names after a cut word: not a header.
    assert!(!extract("naten: Xylomorph, Quandrel").header_found);
}

#[test]
fn a_full_stop_before_the_next_languages_header_ends_the_list() {
    // The French product name and a misread `Ingrédients:` after the German list's full
    // stop: not more items of the German list.
    let mango = "Mangoschnitze, getrocknet. Zutaten: Mangoschnitze,\n\
                 Antioxidationsmittel: Natriummetabisulfit, Kartoffelstärke.\n\
                 Morceaux de mangue, séchées. Ingrédlents: tranches de\n\
                 mangues, antioxydant: disulfite de sodium";
    let found = extract(mango);
    assert_eq!(found.items.len(), 3, "{:?}", found.items);
    assert_eq!(found.items[2], "Kartoffelstärke");
    // A blurred comma read as a full stop still continues the list.
    let found = extract("Zutaten: Zucker. Kakaobutter, Vollmilchpulver, Salz");
    assert_eq!(found.items.len(), 4, "{:?}", found.items);
}

#[test]
fn a_first_word_names_an_item_only_before_qualifiers_in_lower_case() {
    // A known food and how it was made.
    for item in [
        "Erdnüsse* geröstet",
        "Butter eingesotten aus pasteurisiertem Rahm (Schweiz)",
        "Kakaopulver fettarm",
    ] {
        assert!(names_known(item), "{item}");
    }
    // A known name and the footnote read into it where its mark was lost (`*Organic`), or
    // another name where a comma was: the item is not a known name.
    for item in ["Coumarin** Orgnic", "Coumarin Organic Quandrel"] {
        assert!(!names_known(item), "{item}");
    }
}

#[test]
fn a_footnote_whose_mark_was_not_read_ends_a_marked_list() {
    // `*Organic, **Component of natural fragrance` under the list, its first mark lost.
    assert_eq!(
        list(
            "INGREDIENTS: Cocos Nucifera Oil*, Linalool**, Coumarin**\n\
             Orgnic,**Component of natural frgrom\nWe Love The Planet"
        ),
        "Cocos Nucifera Oil*, Linalool**, Coumarin**"
    );
    // A known name after a marked one (a comma lost), or a qualifier: the list goes on.
    assert_eq!(
        list("Ingredients: Cocos Nucifera Oil*, Citronellol** Linalool**, Tocopherol"),
        "Cocos Nucifera Oil*, Citronellol** Linalool**, Tocopherol"
    );
    assert_eq!(list("Zutaten: Erdnüsse* geröstet"), "Erdnüsse* geröstet");
    // Without marks in the list, a capital is another word.
    assert_eq!(
        list("Ingredients: Water, Salt Organic, Sugar"),
        "Water, Salt Organic, Sugar"
    );
}

#[test]
fn the_tail_of_a_may_contain_statement_after_the_list_is_not_part_of_it() {
    // The reading order put the statement's last line after the list's only line.
    let peanut = "Spuren von Milch, Mandel, Haselnuss, Walnuss, Cashewnuss\n\
                  Iunaten: Erdnüsse* geröstet\n\
                  dmianuss, Sesam und Lupine enthalten.\n\
                  apdierts: cacahuètes* grillées";
    assert_eq!(extract(peanut).items, ["Erdnüsse* geröstet"]);
    // A list whose line ends with a comma goes on, and a list line is no statement.
    assert_eq!(
        list("Zutaten: Zucker, Haselnüsse,\nKakaobutter, Salz enthalten."),
        "Zucker, Haselnüsse, Kakaobutter, Salz enthalten"
    );
    assert_eq!(
        list("Zutaten: Zucker, Haselnüsse\ngeröstet, Salz."),
        "Zucker, Haselnüsse geröstet, Salz"
    );
}

#[test]
fn a_statement_or_the_next_languages_header_after_an_item_ended_ends_the_list() {
    // The next language's product name and its header, cut and without its colon.
    assert_eq!(
        list("Zutaten: Kichererbsen, Wasser, Kochsalz\nPois chiches ngrédients pois chiches eau"),
        "Kichererbsen, Wasser, Kochsalz"
    );
    // A statement in the next language's words.
    assert_eq!(
        list("Ingredients: Limonene, Linalool\nNicht zum Verzehr geeignet"),
        "Limonene, Linalool"
    );
    // An item broken across lines goes on, in lower case or as a name; words that end as a
    // header ends but keep less of it (`Tomaten`) are names.
    assert_eq!(
        list("Zutaten: Zucker, Paprika\nTomaten, Salz"),
        "Zucker, Paprika Tomaten, Salz"
    );
    assert_eq!(
        list("Ingrédients: sucre, huile de\nla palme, sel"),
        "sucre, huile de la palme, sel"
    );
}

#[test]
fn a_list_run_on_into_its_translation_ends_where_the_translation_starts() {
    // The list's full stop read as a comma, then the French product name before the French
    // header (cut, without its colon).
    assert_eq!(
        list("Zutaten: Kichererbsen, Wasser, Kochsalz,\nPois chiches\nngrédients pois chiches eau"),
        "Kichererbsen, Wasser, Kochsalz"
    );
    // The French list whose header was not read, after the German one.
    assert_eq!(
        list(
            "Zutaten: Zucker, Kakaobutter, Vollmilchpulver, Salz,\n\
             sucre, beurre de cacao, lait entier en poudre, sel"
        ),
        "Zucker, Kakaobutter, Vollmilchpulver, Salz"
    );
    // A name printed again as printed, or another food of the same kind, is more of the list.
    assert_eq!(
        list("Zutaten: Sojasauce (Wasser, Salz), Zucker, Wasser, Salz"),
        "Sojasauce (Wasser, Salz), Zucker, Wasser, Salz"
    );
    assert_eq!(
        list("Zutaten: Zucker, Salz, Rohrzucker, Meersalz"),
        "Zucker, Salz, Rohrzucker, Meersalz"
    );
    // The list's next column after its translation: a known name not named before.
    assert_eq!(
        list("Zutaten: Zucker, Kakaobutter, sucre, beurre de cacao, Haselnüsse"),
        "Zucker, Kakaobutter, sucre, beurre de cacao, Haselnüsse"
    );
    // One name again in another spelling among new names is not a translation.
    assert_eq!(
        list("Zutaten: Zucker, Salz, sucre, Pfeffer, Zimt, Vanille"),
        "Zucker, Salz, sucre, Pfeffer, Zimt, Vanille"
    );
}

#[test]
fn addresses_web_addresses_and_energy_values_are_no_items() {
    // The distributor's address and the nutrition table read into a list after its header.
    assert_eq!(
        extract(
            "Zutaten: Zucker, Salz, Migros France SAS, F-74160 Archamps,\n\
             www.migros.ch, Energie 2489 kJ (598 kcal), 1200kJ"
        )
        .items,
        ["Zucker", "Salz", "Migros France SAS"]
    );
    // Without a header they stay, for the reading to be judged whole (no list).
    assert_eq!(
        extract("liquide, Migros France SAS, F-74160 Archamps").items,
        ["liquide", "Migros France SAS", "F-74160 Archamps"]
    );
    // Additives, colour index numbers, shares and hyphenated names stay.
    assert_eq!(
        list("Zutaten: Säureregulator: E 524, CI 77491, Sesam (1,6%), Viskose-Vlies, C12-15"),
        "Säureregulator: E 524, CI 77491, Sesam (1,6%), Viskose-Vlies, C12-15"
    );
}
