use super::*;
use crate::job::mail::parse_message;

fn email(headers: &str, body: &str) -> ParsedEmail {
    let raw = format!("{headers}\r\n\r\n{body}")
        .replace('\n', "\r\n")
        .replace("\r\r", "\r");
    parse_message(raw.as_bytes(), None).unwrap()
}

#[test]
fn user_rules_come_first_and_cover_subdomains() {
    let rules = Rules::parse(
        "[senders]\n\"boss@example.com\" = \"Need-Action\"\n\"example.org\" = \"newsletter\"\n\"@linkedin.com\" = \"FYI\"",
        "rules.toml",
    )
    .unwrap();
    let classifier = Classifier::embedded().with_rules(rules);
    let c = classifier.classify(&email(
        "From: news@mail.example.org\nSubject: Huge sale 50% off",
        "buy",
    ));
    assert_eq!(
        (c.category, c.reason.as_str()),
        (Category::Newsletter, "rule: example.org")
    );
    let c = classifier.classify(&email(
        "From: a@linkedin.com\nSubject: x liked your post",
        "x",
    ));
    assert_eq!(c.category, Category::Fyi);
    assert_eq!(c.confidence, 1.0);
}

#[test]
fn bad_rules_files_say_what_is_wrong() {
    let err = Rules::parse("[senders]\n\"a@example.com\" = \"Spam\"", "r.toml").unwrap_err();
    assert!(err.to_string().contains("unknown category 'Spam'"), "{err}");
    assert!(Rules::parse("senders = 3", "r.toml").is_err());
    assert!(Rules::parse("[other]\nx = 1", "r.toml").is_err());
}

#[test]
fn social_network_senders_are_social() {
    let c = Classifier::embedded().classify(&email(
        "From: Facebook <notification@facebookmail.com>\nSubject: hello",
        "x",
    ));
    assert_eq!(c.category, Category::Social);
}

#[test]
fn list_discussion_is_fyi_not_newsletter() {
    let c = Classifier::embedded().classify(&email(
        "From: someone@example.org\nSubject: Re: [dev] weekly newsletter design\nList-Id: <dev.lists.example.org>\nList-Post: <mailto:dev@lists.example.org>\nList-Unsubscribe: <mailto:leave@lists.example.org>\nPrecedence: list",
        "I think this week's issue of the newsletter reads well.",
    ));
    assert_eq!(c.category, Category::Fyi, "{c:?}");
}

#[test]
fn automated_notifications_and_receipts_are_fyi() {
    let c = Classifier::embedded().classify(&email(
        "From: noreply@shop.example.com\nSubject: Your receipt\nAuto-Submitted: auto-generated",
        "Thank you for your payment. Total 12 EUR.",
    ));
    assert_eq!(c.category, Category::Fyi);
}

#[test]
fn bulk_marketing_is_promotional_and_editorial_bulk_is_newsletter() {
    let promo = Classifier::embedded().classify(&email(
        "From: deals@shop.example.com\nSubject: Flash sale: 50% off everything\nList-Unsubscribe: <https://x>\nX-CampaignID: 7",
        "Limited time offer. Shop now, free shipping.",
    ));
    assert_eq!(promo.category, Category::Promotional, "{promo:?}");
    let news = Classifier::embedded().classify(&email(
        "From: editor@weekly.example.org\nSubject: Issue 12: articles on databases and compilers\nList-Unsubscribe: <https://x>\nFeedback-ID: 1:x",
        "In this issue: three articles, a reading list and community updates.",
    ));
    assert_eq!(news.category, Category::Newsletter, "{news:?}");
}

#[test]
fn a_person_asking_with_a_deadline_is_need_action() {
    let c = Classifier::embedded().classify(&email(
        "From: Priya <priya@example.com>\nSubject: Could you check the contract by Thursday?",
        "Hi, can you review the contract and send me your comments before Thursday?",
    ));
    assert_eq!(c.category, Category::NeedAction, "{c:?}");
    assert!(c.confidence > 0.0 && c.confidence <= 1.0);
}

#[test]
fn golden_messages_are_mostly_categorised_as_labelled() {
    let golden = golden_messages();
    let correct = golden
        .iter()
        .filter(|g| {
            let parsed = parse_message(g.raw, None).unwrap();
            Classifier::embedded().classify(&parsed).category == g.expected
        })
        .count();
    let accuracy = correct as f64 / golden.len() as f64;
    assert!(accuracy >= 0.9, "{correct}/{}", golden.len());
}

#[test]
fn held_out_accuracy_is_reported_and_reasonable() {
    let report = holdout_report();
    assert_eq!(
        report.trained + report.tested,
        bayes::parse_corpus(bayes::CORPUS).unwrap().len()
    );
    assert!(report.tested >= 40);
    assert!(report.accuracy() >= 0.7, "{report:?}");
}
