use super::*;

fn item(subject: &str, from: &str, snippet: &str) -> EmailItem {
    EmailItem {
        id: format!("{subject}@x"),
        subject: subject.into(),
        from: from.into(),
        date: "2026-11-21".into(),
        snippet: snippet.into(),
        reasons: Vec::new(),
    }
}

#[test]
fn deadlines_are_found() {
    assert_eq!(
        deadline("Please send it by Friday noon."),
        Some("by Friday".into())
    );
    assert_eq!(
        deadline("due tomorrow at 12:00"),
        Some("due tomorrow".into())
    );
    assert_eq!(
        deadline("send it back by 23 November."),
        Some("by 23 November".into())
    );
    assert_eq!(deadline("Can we talk?"), None);
    // "Mayday" is not "may": whole words only.
    assert_eq!(deadline("Mayday signals"), None);
}

#[test]
fn need_action_says_who_wants_what_by_when() {
    let a = item(
        "Q4 budget",
        "priya@example.com",
        "Hi Dana, Could you review the Q4 budget draft before Friday noon? Finance needs it.",
    );
    let summary = summarize(
        Category::NeedAction,
        &[SummaryInput {
            item: &a,
            sender: "Priya Raman",
        }],
    )
    .unwrap();
    assert_eq!(
        summary,
        "1 request is waiting for you. Priya Raman asks: “Could you review the Q4 budget draft before Friday noon?” — before Friday."
    );
}

#[test]
fn promotional_and_social_count_senders() {
    let a = item("40% off everything", "a@shop.example.com", "");
    let b = item("Free shipping today", "a@shop.example.com", "");
    let c = item("Sale", "b@store.example.com", "");
    let inputs = [
        SummaryInput {
            item: &a,
            sender: "Shop",
        },
        SummaryInput {
            item: &b,
            sender: "Shop",
        },
        SummaryInput {
            item: &c,
            sender: "Store",
        },
    ];
    let summary = summarize(Category::Promotional, &inputs).unwrap();
    assert_eq!(
        summary,
        "3 promotional emails from 2 senders: Shop (2), Store. Offers include: 40% off; Free shipping."
    );
    let social = summarize(Category::Social, &inputs).unwrap();
    assert!(
        social.starts_with("3 notifications from 2 networks: Shop (2), Store."),
        "{social}"
    );
}

#[test]
fn newsletters_list_topics_and_fyi_lists_what_happened() {
    let a = item(
        "Weekly #3: caching, queues",
        "n@example.org",
        "caching everywhere",
    );
    let b = item("[build] main #12 failed", "ci@example.com", "Build failed.");
    let news = summarize(
        Category::Newsletter,
        &[SummaryInput {
            item: &a,
            sender: "Weekly",
        }],
    )
    .unwrap();
    assert_eq!(news, "1 newsletter. Weekly: caching, queues.");
    let fyi = summarize(
        Category::Fyi,
        &[SummaryInput {
            item: &b,
            sender: "CI",
        }],
    )
    .unwrap();
    assert_eq!(fyi, "1 update. CI: main #12 failed.");
}

#[test]
fn empty_categories_have_no_summary_and_long_ones_say_how_many_more() {
    assert_eq!(summarize(Category::Fyi, &[]), None);
    let items: Vec<_> = (0..8)
        .map(|i| item(&format!("Event number {i} happened"), "x@example.com", ""))
        .collect();
    let inputs: Vec<_> = items
        .iter()
        .map(|i| SummaryInput {
            item: i,
            sender: "X",
        })
        .collect();
    assert!(
        summarize(Category::Fyi, &inputs)
            .unwrap()
            .ends_with("And 3 more.")
    );
}

#[test]
fn deadline_survives_characters_whose_lower_case_is_longer() {
    // "İ" lower-cases to two characters; offsets must still be valid.
    assert_eq!(
        deadline("İİİ please reply by Friday İstanbul"),
        Some("by Friday".into())
    );
}

proptest::proptest! {
    #[test]
    fn summaries_never_panic_and_are_never_empty(
        subjects in proptest::collection::vec("\\PC{0,60}", 1..6),
        snippet in "\\PC{0,200}",
    ) {
        let items: Vec<_> = subjects.iter().map(|s| item(s, "x@example.com", &snippet)).collect();
        let inputs: Vec<_> = items.iter().map(|i| SummaryInput { item: i, sender: "X" }).collect();
        for category in Category::ALL {
            let summary = summarize(category, &inputs).unwrap();
            proptest::prop_assert!(!summary.is_empty());
        }
        let _ = deadline(&snippet);
    }
}
