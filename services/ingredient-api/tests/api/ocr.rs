//! `POST /ocr` end to end: the real app, the real Tesseract, labels rendered by pango-view.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use crate::helpers::{TestApp, json, spawn_app, spawn_app_with};
use crate::labels::{Variant, corpus, render, score};
use test_support::images::{bomb_png, cmyk_jpeg};

fn ocr_error(message: &str) -> Value {
    json!({"success": false, "text": "", "error": message, "detail": message})
}

async fn post_image(app: &TestApp, image: &str) -> reqwest::Response {
    app.post_json("/ocr", &json!({ "image": image })).await
}

fn label(name: &str) -> crate::labels::Label {
    corpus()
        .into_iter()
        .find(|l| l.name == name)
        .expect("label in corpus")
}

#[tokio::test]
async fn invalid_base64_is_400_with_the_ocr_body() {
    let app = spawn_app().await;
    let res = post_image(&app, "abc!def").await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        json(res).await,
        ocr_error("image is not valid base64: Invalid symbol 33, offset 3.")
    );
}

#[tokio::test]
async fn bytes_that_are_not_an_image_are_400() {
    let app = spawn_app().await;
    // A list of file names is what the Tesseract CLI would read if given non-image bytes.
    for bytes in [
        &b"/etc/passwd\n/etc/hostname\n"[..],
        b"just some text, no image",
    ] {
        let res = post_image(&app, &STANDARD.encode(bytes)).await;
        assert_eq!(res.status(), 400);
        assert_eq!(
            json(res).await,
            ocr_error(
                "image data is not a supported image (expected JPEG, PNG, WebP, BMP, TIFF or GIF)"
            )
        );
    }
}

#[tokio::test]
async fn a_decompression_bomb_is_400_without_decoding() {
    let app = spawn_app().await;
    let res = post_image(&app, &STANDARD.encode(bomb_png(10_000, 10_000))).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        json(res).await,
        ocr_error("image is too large: 10000x10000 pixels; the limit is 40 megapixels")
    );
}

#[tokio::test]
async fn an_image_over_the_byte_limit_is_400() {
    let app = spawn_app_with(&[("OCR_MAX_IMAGE_BYTES", "1000")]).await;
    let res = post_image(&app, &STANDARD.encode(vec![0u8; 2000])).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        json(res).await,
        ocr_error("image is too large: 2000 bytes decoded; the limit is 1000 bytes")
    );
}

#[tokio::test]
async fn a_missing_engine_is_500_and_the_service_still_runs() {
    // Neither engine: no Tesseract binary and the neural engine turned off.
    let app = spawn_app_with(&[
        ("TESSERACT_BIN", "/nonexistent/tesseract"),
        ("OCR_MODELS_DIR", "/nonexistent/ocr-models"),
    ])
    .await;
    let image = STANDARD.encode(render(&label("en-cream"), Variant::Clean));
    let res = post_image(&app, &image).await;
    assert_eq!(res.status(), 500);
    assert_eq!(
        json(res).await,
        ocr_error("OCR engine unavailable: tesseract not found")
    );
    assert_eq!(app.get("/health").await.status(), 200);
}

#[tokio::test]
async fn a_label_photo_round_trips_to_its_ingredient_list() {
    let app = spawn_app().await;
    let label = label("en-cream");
    let image = format!(
        "data:image/png;base64,{}",
        STANDARD.encode(render(&label, Variant::Rotated))
    );
    let res = post_image(&app, &image).await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    assert_eq!(body["success"], true);
    assert_eq!(body["error"], Value::Null);
    assert_eq!(body["language"], "en");
    assert_eq!(body["engine"], "ppocr");
    let text = body["text"].as_str().unwrap();
    let items: Vec<String> = text.split(", ").map(str::to_owned).collect();
    let (matched, expected, returned) = score(&label.items, &items);
    assert!(
        matched + 1 >= expected && returned <= expected,
        "{matched}/{expected} of {returned}: {text}"
    );
    assert!(text.starts_with("Aqua, Glycerin"), "{text}");
}

#[tokio::test]
async fn a_french_label_reports_its_language_and_the_printed_list() {
    let app = spawn_app().await;
    let label = label("fr-cream");
    let res = post_image(&app, &STANDARD.encode(render(&label, Variant::Jpeg))).await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    assert_eq!(body["language"], "fr");
    let original = body["original_text"].as_str().unwrap();
    assert!(original.contains("Beurre de karité"), "{original}");
    // Translated through the knowledge base into INCI names: a cream is a cosmetic; INCI
    // names (Aqua, Parfum) stay.
    let text = body["text"].as_str().unwrap();
    assert!(text.starts_with("Aqua, "), "{text}");
    assert!(
        text.contains("Butyrospermum Parkii Butter") && !text.contains("karité"),
        "{text}"
    );
    assert!(text.contains("Helianthus Annuus Seed Oil"), "{text}");
    assert!(text.contains("Parfum"), "{text}");
}

/// The original text of a label read by the real pipeline.
async fn original_text(app: &TestApp, name: &str, variant: Variant) -> String {
    let res = post_image(app, &STANDARD.encode(render(&label(name), variant))).await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    body["original_text"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_one_character_line_ending_a_japanese_list_is_kept() {
    // `香料` wraps so that `料` stands alone on the last line, which Tesseract drops as
    // noise unless told otherwise (textord_noise_rejrows).
    let app = spawn_app().await;
    let original = original_text(&app, "ja-biscuits", Variant::Clean).await;
    assert!(original.ends_with("食塩, 香料"), "{original}");
}

#[tokio::test]
async fn a_cjk_list_in_the_dark_corner_of_an_unevenly_lit_label_is_read_whole() {
    // Otsu's global threshold lost `、香料、クエン酸` in the dark corner; the local threshold
    // tried on unevenly lit labels finds them.
    let app = spawn_app().await;
    let original = original_text(&app, "ja-cream", Variant::UnevenLight).await;
    assert!(
        original.ends_with("トコフェロール, 香料, クエン酸"),
        "{original}"
    );
}

#[tokio::test]
async fn small_cjk_print_is_read_at_a_second_scale() {
    // At 3× only `귀리플레이크` came out of the Korean biscuit label in 7 pt at 96 dpi; at
    // 2.5× half the list does.
    let app = spawn_app().await;
    let original = original_text(&app, "ko-biscuits", Variant::Small).await;
    let items: Vec<String> = original.split(", ").map(str::to_owned).collect();
    let (matched, _, _) = score(&label("ko-biscuits").items, &items);
    assert!(matched >= 3, "{original}");
}

#[tokio::test]
async fn a_cjk_name_left_unknown_is_read_again_at_the_first_scale() {
    // At the CJK line height `鲸蜡硬脂醇` came out `鱼旱硬脂醇` (two characters off: not
    // mended); the reading at the first pass's scale has it right and knows more names.
    let app = spawn_app().await;
    let original = original_text(&app, "zh-cream", Variant::TwoColumn).await;
    assert!(
        original.contains("乳木果油, 鲸蜡硬脂醇, 烟酰胺"),
        "{original}"
    );
}

#[tokio::test]
async fn a_cjk_name_still_unknown_is_read_again_with_a_local_threshold() {
    // The last column of the two-column Korean label: `바닐라추출물` came out as garbage at
    // both scales with Otsu's global threshold; Sauvola's local one reads it (docs/ocr.md).
    let app = spawn_app().await;
    let original = original_text(&app, "ko-chocolate", Variant::TwoColumn).await;
    assert!(original.contains("바닐라추출물"), "{original}");
}

#[tokio::test]
async fn the_cjk_per_cent_sign_comes_back_as_printed() {
    // `（12.5％）` is read `(12.59%)` by the jpn pack (docs/ocr.md).
    let app = spawn_app().await;
    let original = original_text(&app, "ja-chocolate", Variant::Clean).await;
    assert!(original.contains("ヘーゼルナッツ(12.5%)"), "{original}");
}

#[tokio::test]
async fn a_blank_image_is_a_failure_that_says_what_to_do() {
    let app = spawn_app().await;
    let mut png = Vec::new();
    image::DynamicImage::ImageRgb8(image::RgbImage::from_pixel(
        300,
        200,
        image::Rgb([255, 255, 255]),
    ))
    .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
    .unwrap();
    let res = post_image(&app, &STANDARD.encode(png)).await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    let error = body["error"].as_str().unwrap_or_default();
    assert_eq!(body, ocr_error(error));
    assert!(
        error.starts_with("no ingredient list found: photograph the list itself"),
        "{body}"
    );
}

fn png(image: &image::DynamicImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    bytes
}

/// Files phones and print workflows make that an 8-bit RGB decoder path would trip on: a CMYK
/// JPEG (Adobe marker) and 16-bit PNGs, grey and RGB. Each is read (200 with the OCR body) or
/// refused with the OCR error body and a 400: never a 500.
#[tokio::test]
async fn cmyk_jpegs_and_16_bit_pngs_are_read_or_refused_with_the_ocr_body() {
    let app = spawn_app().await;
    // Dark bands of ink on white, a crude page of text lines.
    let band = |y: u32| (y / 16) % 3 == 1;
    let cases = [
        (
            "CMYK JPEG",
            cmyk_jpeg(
                320,
                240,
                |_, y| if band(y) { [0, 0, 0, 230] } else { [0; 4] },
            ),
        ),
        (
            "16-bit grey PNG",
            png(&image::DynamicImage::ImageLuma16(
                image::ImageBuffer::from_fn(320, 240, |_, y| {
                    image::Luma([if band(y) { 4_000 } else { 65_000 }])
                }),
            )),
        ),
        (
            "16-bit RGB PNG",
            png(&image::DynamicImage::ImageRgb16(
                image::ImageBuffer::from_fn(320, 240, |_, y| {
                    let v = if band(y) { 4_000 } else { 65_000 };
                    image::Rgb([v, v, v])
                }),
            )),
        ),
    ];
    for (name, bytes) in cases {
        let res = post_image(&app, &STANDARD.encode(bytes)).await;
        let status = res.status().as_u16();
        let body = json(res).await;
        match status {
            // Read, or no list on it (said so, with the failure body).
            200 if body["success"] == true => {
                assert!(body["text"].is_string(), "{name}: {body}");
            }
            200 => {
                let message = body["error"].as_str().unwrap_or_default();
                assert_eq!(body, ocr_error(message), "{name}");
                assert!(message.starts_with("no ingredient list"), "{name}: {body}");
            }
            400 => {
                let message = body["error"].as_str().unwrap_or_default();
                assert_eq!(body, ocr_error(message), "{name}");
                assert!(!message.is_empty(), "{name}: {body}");
            }
            other => panic!("{name}: status {other}: {body}"),
        }
    }
}

#[tokio::test]
async fn excess_requests_get_503_with_retry_after() {
    let app = spawn_app_with(&[
        ("OCR_CONCURRENCY", "1"),
        ("OCR_QUEUE_DEPTH", "0"),
        ("OCR_QUEUE_WAIT_SECS", "2"),
    ])
    .await;
    let image = STANDARD.encode(render(&label("de-biscuits"), Variant::Clean));
    let (a, b) = tokio::join!(post_image(&app, &image), post_image(&app, &image));
    let mut statuses = [a.status().as_u16(), b.status().as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 503]);
    let busy = if a.status() == 503 { a } else { b };
    assert_eq!(busy.headers()["retry-after"], "2");
    assert_eq!(
        json(busy).await,
        ocr_error("OCR is busy: too many images are being processed; retry in 2 s")
    );
}

/// Measured accuracy on a representative subset (the cream label of every language, clean
/// and rotated 3°, and the other CJK labels clean): ingredient-level recall and precision must stay above a floor set below
/// the measured values (docs/ocr.md), so a regression fails. `make ocr-accuracy` prints the
/// full matrix.
#[tokio::test]
async fn accuracy_on_the_nine_languages_stays_above_the_floor() {
    use ingredient_api::ocr::{OcrService, OcrSettings};
    use service_kit::config::EnvSource;

    let settings = OcrSettings::from_env(&EnvSource::from_pairs([
        ("OCR_CONCURRENCY", "2"),
        ("OCR_QUEUE_DEPTH", "100"),
        ("OCR_QUEUE_WAIT_SECS", "600"),
        // As the in-process test servers: tests run in parallel on a loaded machine.
        ("OCR_TIMEOUT_SECS", "60"),
    ]))
    .unwrap();
    let service = std::sync::Arc::new(OcrService::build(&settings).await);
    // The cream label of every language, plus the other CJK labels (where the knowledge-base
    // mending of misread characters and per cent signs matters).
    let labels: Vec<_> = corpus()
        .into_iter()
        .filter(|l| l.name.ends_with("cream") || matches!(l.language.as_str(), "ja" | "ko" | "zh"))
        .collect();
    assert_eq!(labels.len(), 15);
    let mut tasks = Vec::new();
    for (index, label) in labels.iter().enumerate() {
        let variants: &[Variant] = if label.name.ends_with("cream") {
            &[Variant::Clean, Variant::Rotated]
        } else {
            &[Variant::Clean]
        };
        for &variant in variants {
            let image = STANDARD.encode(render(label, variant));
            let service = std::sync::Arc::clone(&service);
            tasks.push(tokio::spawn(async move {
                (index, variant, service.recognise(image).await)
            }));
        }
    }
    let (mut matched, mut expected, mut returned, mut languages) = (0, 0, 0, 0);
    let mut report = String::new();
    for task in tasks {
        let (index, variant, outcome) = task.await.unwrap();
        let label = &labels[index];
        let outcome = outcome.unwrap_or_else(|e| panic!("{} {variant:?}: {e}", label.name));
        let items = domain::ocr::label::split_items(&outcome.original_text);
        let (m, e, r) = score(&label.items, &items);
        (matched, expected, returned) = (matched + m, expected + e, returned + r);
        languages +=
            usize::from(outcome.language.map(|l| l.code()) == Some(label.language.as_str()));
        report.push_str(&format!("{} {variant:?}: {m}/{e} of {r}\n", label.name));
    }
    let recall = matched as f64 / expected as f64;
    let precision = matched as f64 / returned.max(1) as f64;
    assert!(
        recall >= RECALL_FLOOR && precision >= PRECISION_FLOOR,
        "recall {recall:.3}, precision {precision:.3}\n{report}"
    );
    assert!(
        languages >= 23,
        "languages detected: {languages}/24\n{report}"
    );
}

/// Floors below the values measured on this subset (0.981–0.990 in recall and precision:
/// 2–4 misread items of 208; docs/ocr.md), leaving room for two more misreads but not for losing
/// the CJK mending (without it the subset scores 0.962: 8 misses).
const RECALL_FLOOR: f64 = 0.97;
const PRECISION_FLOOR: f64 = 0.97;

#[tokio::test]
async fn a_lang_that_is_not_one_of_the_nine_is_400_with_the_ocr_body() {
    let app = spawn_app().await;
    let image = STANDARD.encode(render(&label("en-biscuits"), Variant::Clean));
    for lang in [json!("xx"), json!("english"), json!(""), json!(7)] {
        let res = app
            .post_json("/ocr", &json!({ "image": image, "lang": lang }))
            .await;
        assert_eq!(res.status(), 400, "lang {lang}");
        let body = json(res).await;
        assert_eq!(body["success"], false, "lang {lang}");
        assert_eq!(body["text"], "", "lang {lang}");
    }
    let res = app
        .post_json("/ocr", &json!({ "image": image, "lang": "xx" }))
        .await;
    assert_eq!(
        json(res).await,
        ocr_error(
            "lang must be the ISO 639-1 code of one of the label languages: en, fr, es, de, it, pt, ko, ja or zh"
        )
    );
}

/// `lang: null` is the same as leaving `lang` out (the document says so): mobile clients send
/// null for an unset optional field.
#[tokio::test]
async fn a_null_lang_is_the_same_as_no_lang() {
    let app = spawn_app().await;
    let image = STANDARD.encode(render(&label("en-biscuits"), Variant::Clean));
    let without = json(app.post_json("/ocr", &json!({ "image": image })).await).await;
    let res = app
        .post_json("/ocr", &json!({ "image": image, "lang": null }))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(json(res).await, without);
    assert_eq!(without["success"], true, "{without}");
}

/// A German pack with the same list in French below it: `lang` picks the French list, and
/// without it the first list printed (German) answers; `language` says which one came back.
#[tokio::test]
async fn lang_picks_the_list_in_that_language_on_a_multilingual_pack() {
    let app = spawn_app().await;
    let mut pack = label("de-biscuits");
    pack.after = vec![
        "Ingrédients : Flocons d'avoine, Farine de blé, Sucre, Huile de palme, Sel.".to_owned(),
        "Poids net : 300 g".to_owned(),
    ];
    let image = STANDARD.encode(render(&pack, Variant::Clean));

    let first = json(post_image(&app, &image).await).await;
    let french = json(
        app.post_json("/ocr", &json!({ "image": image, "lang": "fr" }))
            .await,
    )
    .await;

    assert_eq!(first["language"], "de", "{first}");
    let first_items = first["original_text"].as_str().unwrap();
    assert!(first_items.contains("Weizenmehl"), "{first}");
    assert!(!first_items.contains("Farine"), "{first}");
    assert_eq!(french["success"], true, "{french}");
    assert_eq!(french["language"], "fr", "{french}");
    let (matched, expected, returned) = score(
        &[
            "Flocons d'avoine",
            "Farine de blé",
            "Sucre",
            "Huile de palme",
            "Sel",
        ]
        .map(String::from),
        &domain::ocr::label::split_items(french["original_text"].as_str().unwrap()),
    );
    assert!(
        matched >= 4 && returned <= expected + 1,
        "{matched}/{expected} of {returned}: {french}"
    );
}
