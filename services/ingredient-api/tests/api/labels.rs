//! Synthetic product labels for measuring `/ocr`: text in the nine languages rendered with
//! Debian fonts (`pango-view` from pango1.0-tools; DejaVu, Noto CJK), then degraded like
//! phone photos. Shared by the accuracy test and `examples/ocr_accuracy.rs`.
#![allow(dead_code)]

use std::io::Cursor;
use std::process::Command;

use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use unicode_normalization::UnicodeNormalization;

/// One label: what is printed and which items the list holds.
pub struct Label {
    /// ISO 639-1 code.
    pub language: &'static str,
    /// Short name for tables.
    pub name: &'static str,
    /// Lines printed above the list (product name, sometimes a nutrition table).
    pub before: &'static [&'static str],
    /// The list header, with its colon.
    pub header: &'static str,
    /// The items, as printed.
    pub items: &'static [&'static str],
    /// Lines printed after the list (other sections).
    pub after: &'static [&'static str],
}

impl Label {
    fn cjk(&self) -> bool {
        matches!(self.language, "ja" | "zh")
    }

    /// The list line as printed.
    pub fn list_line(&self) -> String {
        if self.cjk() {
            format!("{}{}", self.header, self.items.join("、"))
        } else {
            format!("{} {}.", self.header, self.items.join(", "))
        }
    }

    /// The whole label text.
    pub fn text(&self) -> String {
        let mut lines: Vec<String> = self.before.iter().map(|s| s.to_string()).collect();
        lines.push(self.list_line());
        lines.extend(self.after.iter().map(|s| s.to_string()));
        lines.join("\n")
    }

    fn font(&self, serif: bool) -> &'static str {
        match (self.language, serif) {
            ("ja", false) => "Noto Sans CJK JP",
            ("ja", true) => "Noto Serif CJK JP",
            ("zh", false) => "Noto Sans CJK SC",
            ("zh", true) => "Noto Serif CJK SC",
            ("ko", false) => "Noto Sans CJK KR",
            ("ko", true) => "Noto Serif CJK KR",
            (_, false) => "DejaVu Sans",
            (_, true) => "DejaVu Serif",
        }
    }
}

/// How a label is photographed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Black on white, 11 pt at 150 dpi.
    Clean,
    /// Brown serif text on a yellow background.
    Coloured,
    /// 7 pt at 96 dpi (text about 9 px high).
    Small,
    /// Rotated by 3°.
    Rotated,
    /// Grain and salt-and-pepper noise.
    Noisy,
    /// The other sections in a second column beside the list.
    TwoColumn,
    /// Light falling off from one corner to the other.
    UnevenLight,
    /// Saved as a JPEG of quality 25.
    Jpeg,
    /// Top edge narrower than the bottom (photo taken from below).
    Perspective,
    /// 7 pt at 150 dpi: the small print as a phone camera captures it (CJK characters of
    /// about 14 px). Not in [`Variant::ALL`]: an extra data point (`--variants small-150`).
    SmallAt150Dpi,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 9] = [
        Variant::Clean,
        Variant::Coloured,
        Variant::Small,
        Variant::Rotated,
        Variant::Noisy,
        Variant::TwoColumn,
        Variant::UnevenLight,
        Variant::Jpeg,
        Variant::Perspective,
    ];

    /// Variants measured only on request (`ocr_accuracy --variants …`).
    pub const OPT_IN: [Variant; 1] = [Variant::SmallAt150Dpi];

    /// Lower-case name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Clean => "clean",
            Variant::Coloured => "coloured",
            Variant::Small => "small",
            Variant::Rotated => "rotated",
            Variant::Noisy => "noisy",
            Variant::TwoColumn => "two-column",
            Variant::UnevenLight => "uneven-light",
            Variant::Jpeg => "jpeg",
            Variant::Perspective => "perspective",
            Variant::SmallAt150Dpi => "small-150",
        }
    }
}

struct Style<'a> {
    font: &'a str,
    points: u32,
    dpi: u32,
    width_pt: u32,
    background: &'a str,
    foreground: &'a str,
    rotate: f32,
}

/// Renders `text` with pango-view and returns the image. Panics with a clear message if
/// pango-view is missing (scripts/setup/install-deps.sh test installs it).
fn pango(text: &str, style: &Style<'_>) -> RgbImage {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("label.txt");
    let output = dir.path().join("label.png");
    std::fs::write(&input, text).expect("write label text");
    let status = Command::new("pango-view")
        .arg(format!("--font={} {}", style.font, style.points))
        .arg(format!("--dpi={}", style.dpi))
        .arg(format!("--width={}", style.width_pt))
        .arg("--wrap=word-char")
        .arg("--margin=24")
        .arg(format!("--background={}", style.background))
        .arg(format!("--foreground={}", style.foreground))
        .arg(format!("--rotate={}", style.rotate))
        .arg("--antialias=gray")
        .arg("-q")
        .arg("-o")
        .arg(&output)
        .arg(&input)
        .status()
        .expect("pango-view runs (Debian package pango1.0-tools: scripts/setup/install-deps.sh test)");
    assert!(status.success(), "pango-view failed: {status}");
    image::open(&output)
        .expect("pango-view wrote a PNG")
        .to_rgb8()
}

/// A small deterministic generator (xorshift), so images are the same on every run.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 10_000) as f32 / 10_000.0
    }
}

/// The label as an image file (PNG, or JPEG for [`Variant::Jpeg`]).
pub fn render(label: &Label, variant: Variant) -> Vec<u8> {
    let mut style = Style {
        font: label.font(false),
        points: 11,
        dpi: 150,
        width_pt: 330,
        background: "#ffffff",
        foreground: "#111111",
        rotate: 0.0,
    };
    match variant {
        Variant::Coloured => {
            style.font = label.font(true);
            style.background = "#f2dc9b";
            style.foreground = "#5a240c";
        }
        Variant::Small => {
            style.points = 7;
            style.dpi = 96;
        }
        Variant::SmallAt150Dpi => style.points = 7,
        Variant::Rotated => style.rotate = 3.0,
        _ => {}
    }
    let mut image = if variant == Variant::TwoColumn {
        let mut left: Vec<String> = label.before.iter().map(|s| s.to_string()).collect();
        left.push(label.list_line());
        let right = label.after.join("\n\n");
        let column = Style {
            width_pt: 230,
            ..style
        };
        let left = pango(&left.join("\n"), &column);
        let right = pango(&right, &column);
        let mut both = RgbImage::from_pixel(
            left.width() + right.width() + 40,
            left.height().max(right.height()),
            Rgb([255, 255, 255]),
        );
        image::imageops::overlay(&mut both, &left, 0, 0);
        image::imageops::overlay(&mut both, &right, i64::from(left.width()) + 40, 0);
        both
    } else {
        pango(&label.text(), &style)
    };
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15 ^ label.name.len() as u64);
    match variant {
        Variant::Noisy => {
            for p in image.pixels_mut() {
                let grain = (noise.unit() + noise.unit() + noise.unit() - 1.5) * 70.0;
                let salt = noise.unit();
                for c in p.0.iter_mut() {
                    *c = (f32::from(*c) + grain).clamp(0.0, 255.0) as u8;
                }
                if salt < 0.003 {
                    p.0 = [0, 0, 0];
                } else if salt > 0.997 {
                    p.0 = [255, 255, 255];
                }
            }
        }
        Variant::UnevenLight => {
            let (w, h) = image.dimensions();
            for (x, y, p) in image.enumerate_pixels_mut() {
                let t = (x as f32 / w as f32 + y as f32 / h as f32) / 2.0;
                let light = 1.0 - 0.55 * t;
                let tint = [1.0, 0.95, 0.85];
                for (c, k) in p.0.iter_mut().zip(tint) {
                    *c = (f32::from(*c) * light * k) as u8;
                }
            }
        }
        Variant::Perspective => {
            let (w, h) = image.dimensions();
            let source = image.clone();
            let mut out = RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
            for (x, y, p) in out.enumerate_pixels_mut() {
                // Row y is squeezed by up to 8 % at the top, about the centre.
                let squeeze = 1.0 - 0.08 * (1.0 - y as f32 / h as f32);
                let sx = (x as f32 - w as f32 / 2.0) / squeeze + w as f32 / 2.0;
                if sx >= 0.0 && (sx as u32) < w {
                    *p = *source.get_pixel(sx as u32, y);
                }
            }
            image = out;
        }
        _ => {}
    }
    let mut bytes = Vec::new();
    if variant == Variant::Jpeg {
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 25)
            .encode_image(&DynamicImage::ImageRgb8(image))
            .expect("JPEG encodes");
    } else {
        DynamicImage::ImageRgb8(image)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .expect("PNG encodes");
    }
    bytes
}

/// Comparable form of an item: NFKC, lower case, `、` as `,`, no spaces, no final full stop.
pub fn normalise(item: &str) -> String {
    item.nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| if c == '、' { ',' } else { c })
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches(['.', '。'])
        .to_owned()
}

/// (items matched, items expected, items returned), matching as multisets.
pub fn score(expected: &[&str], got: &[String]) -> (usize, usize, usize) {
    let mut remaining: Vec<String> = expected.iter().map(|s| normalise(s)).collect();
    let mut matched = 0;
    for item in got {
        let item = normalise(item);
        if let Some(i) = remaining.iter().position(|e| *e == item) {
            remaining.swap_remove(i);
            matched += 1;
        }
    }
    (matched, expected.len(), got.len())
}

/// Three labels per language: biscuits, a face cream (INCI-like names) and chocolate with
/// the traps (decimal commas, brackets, a nutrition table before the list in Chinese).
pub fn corpus() -> Vec<Label> {
    vec![
        // English
        Label {
            language: "en",
            name: "en-biscuits",
            before: &["OAT BISCUITS"],
            header: "Ingredients:",
            items: &[
                "Wholegrain oat flakes (45%)",
                "Wheat flour",
                "Sugar",
                "Palm oil",
                "Golden syrup",
                "Raising agents (sodium bicarbonate, ammonium bicarbonate)",
                "Salt",
                "Natural flavouring",
            ],
            after: &[
                "Allergy advice: for allergens see ingredients in bold.",
                "Best before: see side of pack",
                "Net weight 300 g",
            ],
        },
        Label {
            language: "en",
            name: "en-cream",
            before: &["Hydrating face cream"],
            header: "INGREDIENTS:",
            items: &[
                "Aqua",
                "Glycerin",
                "Caprylic/Capric Triglyceride",
                "Cetearyl Alcohol",
                "Butyrospermum Parkii Butter",
                "Niacinamide",
                "Tocopherol",
                "1,2-Hexanediol",
                "Parfum",
                "Citric Acid",
            ],
            after: &["Directions: apply morning and evening.", "Made in UK 50 ml"],
        },
        Label {
            language: "en",
            name: "en-chocolate",
            before: &["Milk chocolate with hazelnuts"],
            header: "Ingredients:",
            items: &[
                "Sugar",
                "Cocoa butter",
                "Whole milk powder",
                "Hazelnuts (12,5 %)",
                "Cocoa mass",
                "Emulsifier (soya lecithin)",
                "Vanilla extract",
            ],
            after: &[
                "Nutrition information per 100 g: Energy 2250 kJ",
                "Store in a cool, dry place.",
            ],
        },
        // French
        Label {
            language: "fr",
            name: "fr-biscuits",
            before: &["BISCUITS À L'AVOINE"],
            header: "Ingrédients :",
            items: &[
                "Flocons d'avoine complète (45 %)",
                "Farine de blé",
                "Sucre",
                "Huile de palme",
                "Sirop de sucre inverti",
                "Poudres à lever (carbonate acide de sodium, carbonate acide d'ammonium)",
                "Sel",
                "Arôme naturel",
            ],
            after: &[
                "Allergènes : voir les ingrédients en gras.",
                "À consommer de préférence avant : voir le côté",
                "Poids net : 300 g",
            ],
        },
        Label {
            language: "fr",
            name: "fr-cream",
            before: &["Crème hydratante visage"],
            header: "COMPOSITION :",
            items: &[
                "Aqua",
                "Glycérine",
                "Huile de tournesol",
                "Beurre de karité",
                "Alcool cétéarylique",
                "Niacinamide",
                "Tocophérol",
                "Parfum",
                "Acide citrique",
            ],
            after: &[
                "Mode d'emploi : appliquer matin et soir.",
                "Fabriqué en France 50 ml",
            ],
        },
        Label {
            language: "fr",
            name: "fr-chocolate",
            before: &["Chocolat au lait noisettes"],
            header: "Ingrédients :",
            items: &[
                "Sucre",
                "Beurre de cacao",
                "Lait entier en poudre",
                "Noisettes (12,5 %)",
                "Pâte de cacao",
                "Émulsifiant (lécithine de soja)",
                "Extrait de vanille",
            ],
            after: &[
                "Valeurs nutritionnelles pour 100 g : Énergie 2250 kJ",
                "Conserver dans un endroit frais et sec.",
            ],
        },
        // Spanish
        Label {
            language: "es",
            name: "es-biscuits",
            before: &["GALLETAS DE AVENA"],
            header: "Ingredientes:",
            items: &[
                "Copos de avena integral (45 %)",
                "Harina de trigo",
                "Azúcar",
                "Aceite de palma",
                "Jarabe de azúcar invertido",
                "Gasificantes (bicarbonato sódico, bicarbonato amónico)",
                "Sal",
                "Aroma natural",
            ],
            after: &[
                "Alérgenos: ver ingredientes en negrita.",
                "Consumir preferentemente antes de: ver lateral",
                "Peso neto: 300 g",
            ],
        },
        Label {
            language: "es",
            name: "es-cream",
            before: &["Crema hidratante facial"],
            header: "Ingredientes:",
            items: &[
                "Aqua",
                "Glicerina",
                "Aceite de girasol",
                "Manteca de karité",
                "Alcohol cetearílico",
                "Niacinamida",
                "Tocoferol",
                "Parfum",
                "Ácido cítrico",
            ],
            after: &[
                "Modo de empleo: aplicar mañana y noche.",
                "Fabricado en España 50 ml",
            ],
        },
        Label {
            language: "es",
            name: "es-chocolate",
            before: &["Chocolate con leche y avellanas"],
            header: "Ingredientes:",
            items: &[
                "Azúcar",
                "Manteca de cacao",
                "Leche entera en polvo",
                "Avellanas (12,5 %)",
                "Pasta de cacao",
                "Emulgente (lecitina de soja)",
                "Extracto de vainilla",
            ],
            after: &[
                "Información nutricional por 100 g: Energía 2250 kJ",
                "Conservar en lugar fresco y seco.",
            ],
        },
        // German
        Label {
            language: "de",
            name: "de-biscuits",
            before: &["HAFERKEKSE"],
            header: "Zutaten:",
            items: &[
                "Vollkornhaferflocken (45 %)",
                "Weizenmehl",
                "Zucker",
                "Palmöl",
                "Invertzuckersirup",
                "Backtriebmittel (Natriumcarbonate, Ammoniumcarbonate)",
                "Salz",
                "Natürliches Aroma",
            ],
            after: &[
                "Allergene: siehe fett gedruckte Zutaten.",
                "Mindestens haltbar bis: siehe Seite",
                "Nettogewicht: 300 g",
            ],
        },
        Label {
            language: "de",
            name: "de-cream",
            before: &["Feuchtigkeitscreme"],
            header: "Inhaltsstoffe:",
            items: &[
                "Aqua",
                "Glycerin",
                "Sonnenblumenöl",
                "Sheabutter",
                "Cetearylalkohol",
                "Niacinamid",
                "Tocopherol",
                "Parfum",
                "Zitronensäure",
            ],
            after: &[
                "Anwendung: morgens und abends auftragen.",
                "Hergestellt in Deutschland 50 ml",
            ],
        },
        Label {
            language: "de",
            name: "de-chocolate",
            before: &["Vollmilchschokolade mit Haselnüssen"],
            header: "Zutaten:",
            items: &[
                "Zucker",
                "Kakaobutter",
                "Vollmilchpulver",
                "Haselnüsse (12,5 %)",
                "Kakaomasse",
                "Emulgator (Sojalecithin)",
                "Vanilleextrakt",
            ],
            after: &[
                "Nährwerte pro 100 g: Brennwert 2250 kJ",
                "Kühl und trocken lagern.",
            ],
        },
        // Italian
        Label {
            language: "it",
            name: "it-biscuits",
            before: &["BISCOTTI ALL'AVENA"],
            header: "Ingredienti:",
            items: &[
                "Fiocchi d'avena integrale (45 %)",
                "Farina di frumento",
                "Zucchero",
                "Olio di palma",
                "Sciroppo di zucchero invertito",
                "Agenti lievitanti (bicarbonato di sodio, bicarbonato d'ammonio)",
                "Sale",
                "Aroma naturale",
            ],
            after: &[
                "Allergeni: vedere gli ingredienti in grassetto.",
                "Da consumarsi preferibilmente entro: vedi lato",
                "Peso netto: 300 g",
            ],
        },
        Label {
            language: "it",
            name: "it-cream",
            before: &["Crema idratante viso"],
            header: "Ingredienti:",
            items: &[
                "Aqua",
                "Glicerina",
                "Olio di girasole",
                "Burro di karité",
                "Alcol cetilstearilico",
                "Niacinamide",
                "Tocoferolo",
                "Parfum",
                "Acido citrico",
            ],
            after: &[
                "Modo d'uso: applicare mattina e sera.",
                "Prodotto in Italia 50 ml",
            ],
        },
        Label {
            language: "it",
            name: "it-chocolate",
            before: &["Cioccolato al latte con nocciole"],
            header: "Ingredienti:",
            items: &[
                "Zucchero",
                "Burro di cacao",
                "Latte intero in polvere",
                "Nocciole (12,5 %)",
                "Pasta di cacao",
                "Emulsionante (lecitina di soia)",
                "Estratto di vaniglia",
            ],
            after: &[
                "Valori nutrizionali per 100 g: Energia 2250 kJ",
                "Conservare in luogo fresco e asciutto.",
            ],
        },
        // Portuguese
        Label {
            language: "pt",
            name: "pt-biscuits",
            before: &["BOLACHAS DE AVEIA"],
            header: "Ingredientes:",
            items: &[
                "Flocos de aveia integral (45 %)",
                "Farinha de trigo",
                "Açúcar",
                "Óleo de palma",
                "Xarope de açúcar invertido",
                "Levedantes (bicarbonato de sódio, bicarbonato de amónio)",
                "Sal",
                "Aroma natural",
            ],
            after: &[
                "Alergénios: ver ingredientes a negrito.",
                "Consumir de preferência antes de: ver lateral",
                "Peso líquido: 300 g",
            ],
        },
        Label {
            language: "pt",
            name: "pt-cream",
            before: &["Creme hidratante facial"],
            header: "Ingredientes:",
            items: &[
                "Aqua",
                "Glicerina",
                "Óleo de girassol",
                "Manteiga de karité",
                "Álcool cetearílico",
                "Niacinamida",
                "Tocoferol",
                "Parfum",
                "Ácido cítrico",
            ],
            after: &[
                "Modo de usar: aplicar de manhã e à noite.",
                "Fabricado em Portugal 50 ml",
            ],
        },
        Label {
            language: "pt",
            name: "pt-chocolate",
            before: &["Chocolate de leite com avelãs"],
            header: "Ingredientes:",
            items: &[
                "Açúcar",
                "Manteiga de cacau",
                "Leite gordo em pó",
                "Avelãs (12,5 %)",
                "Pasta de cacau",
                "Emulsionante (lecitina de soja)",
                "Extrato de baunilha",
            ],
            after: &[
                "Informação nutricional por 100 g: Energia 2250 kJ",
                "Conservar em local fresco e seco.",
            ],
        },
        // Korean
        Label {
            language: "ko",
            name: "ko-biscuits",
            before: &["오트밀 쿠키"],
            header: "성분:",
            items: &[
                "귀리 플레이크(45%)",
                "밀가루",
                "설탕",
                "팜유",
                "물엿",
                "팽창제(탄산수소나트륨, 탄산수소암모늄)",
                "정제소금",
                "천연향료",
            ],
            after: &[
                "알레르기 유발물질: 밀 함유",
                "유통기한: 측면 표기일까지",
                "내용량: 300 g",
            ],
        },
        Label {
            language: "ko",
            name: "ko-cream",
            before: &["수분 크림"],
            header: "전성분:",
            items: &[
                "정제수",
                "글리세린",
                "해바라기씨오일",
                "시어버터",
                "세테아릴알코올",
                "나이아신아마이드",
                "토코페롤",
                "향료",
                "시트릭애씨드",
            ],
            after: &[
                "사용방법: 아침과 저녁에 바릅니다.",
                "제조국: 대한민국 50 ml",
            ],
        },
        Label {
            language: "ko",
            name: "ko-chocolate",
            before: &["헤이즐넛 밀크 초콜릿"],
            header: "성분:",
            items: &[
                "설탕",
                "코코아버터",
                "전지분유",
                "헤이즐넛(12.5%)",
                "코코아매스",
                "유화제(대두레시틴)",
                "바닐라추출물",
            ],
            after: &[
                "영양정보 100 g당: 열량 540 kcal",
                "보관방법: 서늘하고 건조한 곳에 보관",
            ],
        },
        // Japanese
        Label {
            language: "ja",
            name: "ja-biscuits",
            before: &["オートミールクッキー"],
            header: "成分：",
            items: &[
                "オーツ麦（45％）",
                "小麦粉",
                "砂糖",
                "パーム油",
                "水あめ",
                "膨張剤（炭酸水素ナトリウム、炭酸水素アンモニウム）",
                "食塩",
                "香料",
            ],
            after: &["アレルギー：小麦", "賞味期限：側面に記載", "内容量：300g"],
        },
        Label {
            language: "ja",
            name: "ja-cream",
            before: &["保湿クリーム"],
            header: "全成分：",
            items: &[
                "水",
                "グリセリン",
                "ヒマワリ種子油",
                "シア脂",
                "セテアリルアルコール",
                "ナイアシンアミド",
                "トコフェロール",
                "香料",
                "クエン酸",
            ],
            after: &[
                "使用方法：朝晩適量を肌になじませます。",
                "原産国：日本 50mL",
            ],
        },
        Label {
            language: "ja",
            name: "ja-chocolate",
            before: &["ヘーゼルナッツミルクチョコレート"],
            header: "成分：",
            items: &[
                "砂糖",
                "ココアバター",
                "全粉乳",
                "ヘーゼルナッツ（12.5％）",
                "カカオマス",
                "乳化剤（大豆レシチン）",
                "バニラ抽出物",
            ],
            after: &[
                "栄養成分表示 100g当たり：エネルギー 540kcal",
                "保存方法：直射日光、高温多湿を避けて保存",
            ],
        },
        // Chinese
        Label {
            language: "zh",
            name: "zh-biscuits",
            before: &["燕麦饼干"],
            header: "配料：",
            items: &[
                "燕麦片（45%）",
                "小麦粉",
                "白砂糖",
                "棕榈油",
                "麦芽糖浆",
                "膨松剂（碳酸氢钠、碳酸氢铵）",
                "食用盐",
                "食用香精",
            ],
            after: &["致敏物质提示：含有小麦", "保质期：12个月", "净含量：300克"],
        },
        Label {
            language: "zh",
            name: "zh-cream",
            before: &["保湿面霜"],
            header: "成分：",
            items: &[
                "水",
                "甘油",
                "向日葵籽油",
                "乳木果油",
                "鲸蜡硬脂醇",
                "烟酰胺",
                "生育酚",
                "香精",
                "柠檬酸",
            ],
            after: &["使用方法：早晚取适量涂抹于面部。", "产地：中国 50毫升"],
        },
        Label {
            language: "zh",
            name: "zh-chocolate",
            before: &["榛子牛奶巧克力", "营养成分表 每100克：能量 2250千焦"],
            header: "配料：",
            items: &[
                "白砂糖",
                "可可脂",
                "全脂乳粉",
                "榛子（12.5%）",
                "可可液块",
                "乳化剂（大豆磷脂）",
                "香兰素",
            ],
            after: &["贮存条件：阴凉干燥处保存", "生产日期：见包装"],
        },
    ]
}
