//! Content cues in several languages: requests, approvals, deadlines and questions to the
//! reader; prices and offers; editorial structure; social actions; system notices.
//!
//! A cue is a phrase list per meaning (`data/mail/cues.toml`), in English, French, German,
//! Spanish, Italian (and a few Portuguese, Dutch, Russian, Japanese and Chinese forms). The learned model weighs each
//! [`Cue`] like a word, so a cue learnt from one sender's wording applies to every sender who
//! writes the same meaning in any of these languages.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use super::lexicon::lexicon;
use super::text::truncate_chars;

/// A meaning found in the subject or the start of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cue {
    /// "could you", "peux-tu", "kannst du", "¿puedes", "potresti", "please" …
    Request,
    /// A question mark in the subject or the first lines.
    Question,
    /// Approve / reject, moderation, review requested, signature.
    Approval,
    /// Both an approve and a reject word: a decision is asked for.
    ApproveReject,
    /// Due dates, expiry, renewal, "action required".
    Deadline,
    /// A meeting invitation or RSVP.
    Invitation,
    /// A price or amount with a currency.
    Price,
    /// Discounts, sales, coupons, free shipping, "shop now".
    Offer,
    /// Webinars, launches, sweepstakes, upgrades: selling something.
    Marketing,
    /// "To be removed reply REMOVE": 2000s mass mailing.
    RemoveMe,
    /// Issue numbers, "in this issue", "read more", digests, release notes.
    Editorial,
    /// "newsletter", "[Weekly]", "Issue #12" in the subject.
    NewsletterTag,
    /// A periodic title in the subject ("weekly", "monthly", "letter", "brief"): weaker than a
    /// newsletter tag, since reports and statements are periodic too.
    Periodic,
    /// Unsubscribe or manage-preferences text in the body.
    UnsubscribeText,
    /// Someone connected, followed, liked, mentioned, tagged, commented, birthday.
    SocialAction,
    /// Alerts, builds, deploys, backups, cron, errors, incidents.
    OpsNotice,
    /// Receipts, shipping, sign-in notices, "no action required".
    Notice,
    /// Out of office, automatic reply.
    OutOfOffice,
    /// "FYI", "no need to reply", "thanks, got it": a note that asks nothing.
    NoteOnly,
    /// "wrote:" / "a écrit" quotes, list-style discussion.
    Discussion,
}

impl Cue {
    /// Every cue.
    pub const ALL: [Cue; 20] = [
        Cue::Request,
        Cue::Question,
        Cue::Approval,
        Cue::ApproveReject,
        Cue::Deadline,
        Cue::Invitation,
        Cue::Price,
        Cue::Offer,
        Cue::Marketing,
        Cue::RemoveMe,
        Cue::Editorial,
        Cue::NewsletterTag,
        Cue::Periodic,
        Cue::UnsubscribeText,
        Cue::SocialAction,
        Cue::OpsNotice,
        Cue::Notice,
        Cue::OutOfOffice,
        Cue::NoteOnly,
        Cue::Discussion,
    ];

    /// The feature name the model sees.
    pub fn token(self) -> &'static str {
        match self {
            Self::Request => "c:request",
            Self::Question => "c:question",
            Self::Approval => "c:approval",
            Self::ApproveReject => "c:approve-reject",
            Self::Deadline => "c:deadline",
            Self::Invitation => "c:invitation",
            Self::Price => "c:price",
            Self::Offer => "c:offer",
            Self::Marketing => "c:marketing",
            Self::RemoveMe => "c:remove-me",
            Self::Editorial => "c:editorial",
            Self::NewsletterTag => "c:newsletter-tag",
            Self::Periodic => "c:periodic",
            Self::UnsubscribeText => "c:unsubscribe-text",
            Self::SocialAction => "c:social-action",
            Self::OpsNotice => "c:ops-notice",
            Self::Notice => "c:notice",
            Self::OutOfOffice => "c:out-of-office",
            Self::NoteOnly => "c:note-only",
            Self::Discussion => "c:discussion",
        }
    }

    /// What it means, for the reasons shown to users.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Request => "asks you to do something",
            Self::Question => "asks a question",
            Self::Approval => "asks for an approval, review or signature",
            Self::ApproveReject => "Approve / Reject choice",
            Self::Deadline => "a deadline, due date or expiry",
            Self::Invitation => "an invitation to answer (RSVP)",
            Self::Price => "prices",
            Self::Offer => "discount or sale wording",
            Self::Marketing => "marketing wording (webinar, launch, upgrade, prize)",
            Self::RemoveMe => "old-style removal instructions (reply REMOVE)",
            Self::Editorial => "editorial structure (issue, headlines, read more)",
            Self::NewsletterTag => "newsletter or issue tag in the subject",
            Self::Periodic => "a periodic title (weekly, monthly, letter)",
            Self::UnsubscribeText => "unsubscribe text",
            Self::SocialAction => "a social-network action about a person",
            Self::OpsNotice => "an ops or system notice",
            Self::Notice => "an informational notice (receipt, shipping, sign-in)",
            Self::OutOfOffice => "an out-of-office reply",
            Self::NoteOnly => "a note that asks nothing (FYI, thanks)",
            Self::Discussion => "a discussion post quoting others",
        }
    }

    /// The cue's name in `data/mail/cues.toml` (its token without the `c:`).
    pub fn key(self) -> &'static str {
        &self.token()[2..]
    }

    /// Whether the cue is found by phrases of the data (the others are computed: a question
    /// mark, a price, an approve and a reject word together).
    pub fn has_phrases(self) -> bool {
        !matches!(self, Self::Question | Self::ApproveReject | Self::Price)
    }
}

/// A broader meaning that several cues share. The model weighs a group as well as each cue, so
/// a kind of mail whose own wording it never saw (an out-of-office reply, a sign-in notice)
/// still gets the weight learnt from its relatives (receipts, alerts, notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Something is asked of the reader: a request, question, approval, deadline or RSVP.
    Asks,
    /// Selling: offers, marketing, removal instructions.
    Sells,
    /// Editorial or periodic content.
    Editorial,
    /// A social network's news about people.
    Social,
    /// Informing only: notices, ops mail, auto-replies, notes, discussion.
    Informs,
}

impl Group {
    /// The feature name the model sees.
    pub fn token(self) -> &'static str {
        match self {
            Self::Asks => "g:asks",
            Self::Sells => "g:sells",
            Self::Editorial => "g:editorial",
            Self::Social => "g:social",
            Self::Informs => "g:informs",
        }
    }

    /// What it means, for the reasons shown to users.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Asks => "asks something of you",
            Self::Sells => "selling something",
            Self::Editorial => "editorial or periodic content",
            Self::Social => "news about people on a social network",
            Self::Informs => "informs, asks nothing",
        }
    }
}

impl Cue {
    /// The broader meaning this cue belongs to (prices belong to none: invoices, receipts and
    /// sales all carry them).
    pub fn group(self) -> Option<Group> {
        match self {
            Self::Request
            | Self::Question
            | Self::Approval
            | Self::ApproveReject
            | Self::Deadline
            | Self::Invitation => Some(Group::Asks),
            Self::Offer | Self::Marketing | Self::RemoveMe => Some(Group::Sells),
            Self::Editorial | Self::NewsletterTag | Self::Periodic | Self::UnsubscribeText => {
                Some(Group::Editorial)
            }
            Self::SocialAction => Some(Group::Social),
            Self::OpsNotice
            | Self::Notice
            | Self::OutOfOffice
            | Self::NoteOnly
            | Self::Discussion => Some(Group::Informs),
            Self::Price => None,
        }
    }
}

/// The groups of `cues`, in [`Group`] order, without repeats.
pub fn groups(cues: &[Cue]) -> Vec<Group> {
    let mut out: Vec<Group> = cues.iter().filter_map(|c| c.group()).collect();
    out.sort();
    out.dedup();
    out
}

/// How much text a cue may look at: the subject and the start of the body, where requests and
/// offers are made (quotes and footers come later).
const CUE_BODY_CHARS: usize = 1_500;

/// Every phrase of every lexicon in one automaton (built once): a message is scanned once,
/// not once per phrase.
fn matcher() -> &'static (AhoCorasick, Vec<Cue>) {
    static MATCHER: OnceLock<(AhoCorasick, Vec<Cue>)> = OnceLock::new();
    MATCHER.get_or_init(|| {
        let mut patterns = Vec::new();
        let mut owners = Vec::new();
        let phrases = &lexicon().cue_phrases;
        for cue in Cue::ALL {
            for phrase in phrases.get(cue.key()).into_iter().flatten() {
                patterns.push(phrase.as_str());
                owners.push(cue);
            }
        }
        // The phrases are plain literals, well within the automaton's limits.
        let automaton = AhoCorasick::new(&patterns).expect("cue phrases build an automaton");
        (automaton, owners)
    })
}

/// The cues of a message, in [`Cue`] order, without repeats. `subject` and `body` are as
/// parsed (any case).
pub fn cues(subject: &str, body: &str) -> Vec<Cue> {
    let head = truncate_chars(body, CUE_BODY_CHARS);
    let text = without_business_offers(format!("{subject}\n{head}").to_lowercase());
    let subject_len = subject.to_lowercase().len();
    let (automaton, owners) = matcher();
    let mut out: Vec<Cue> = Vec::new();
    for m in automaton.find_overlapping_iter(&text) {
        let cue = owners[m.pattern().as_usize()];
        // Newsletter tags and periodic titles count in the subject only.
        if !matches!(cue, Cue::NewsletterTag | Cue::Periodic) || m.start() < subject_len {
            out.push(cue);
        }
    }
    let subject_lower = text.get(..subject_len).unwrap_or("");
    let first_lines: String = head.lines().take(6).collect::<Vec<_>>().join(" ");
    if subject.contains('?')
        || subject.contains('？')
        || first_lines.contains('?')
        || first_lines.contains('？')
    {
        out.push(Cue::Question);
    }
    if has_price(&text) {
        out.push(Cue::Price);
    }
    if has_approve_and_reject(&text) {
        out.push(Cue::ApproveReject);
    }
    if has_issue_number(subject_lower) {
        out.push(Cue::NewsletterTag);
    }
    if is_dated_issue(subject_lower) {
        out.push(Cue::Periodic);
    }
    if lexicon()
        .no_action
        .iter()
        .any(|p| text.contains(p.as_str()))
    {
        out.retain(|&c| c != Cue::Request);
    }
    out.sort();
    out.dedup();
    out
}

/// `text` (lower-case) with each business document named with an offer word (`offer
/// letter`, `Angebot bestätigen`: lexicon `not-offer`) blanked to spaces of the same length,
/// so its words raise no cue and positions stay where they were.
fn without_business_offers(mut text: String) -> String {
    for phrase in &lexicon().not_offer {
        while let Some(at) = text.find(phrase.as_str()) {
            text.replace_range(at..at + phrase.len(), &" ".repeat(phrase.len()));
        }
    }
    text
}

/// The first phrase of `cue` found in the subject or the start of the body, as the lexicon
/// writes it (`None` for the computed cues and when none is found).
pub fn phrase_of(subject: &str, body: &str, cue: Cue) -> Option<&'static str> {
    let head = truncate_chars(body, CUE_BODY_CHARS);
    let text = without_business_offers(format!("{subject}\n{head}").to_lowercase());
    let (automaton, owners) = matcher();
    let phrases = lexicon().cue_phrases.get(cue.key())?;
    automaton
        .find_overlapping_iter(&text)
        .find(|m| owners[m.pattern().as_usize()] == cue)
        .and_then(|m| {
            let found = &text[m.start()..m.end()];
            phrases.iter().find(|p| p.as_str() == found)
        })
        .map(|p| p.trim())
}

/// A currency sign or code next to a number: `$19.99`, `19,90 €`, `EUR 40`, `£5`.
fn has_price(text: &str) -> bool {
    lexicon().price_signs.iter().any(|sign| {
        text.match_indices(sign.as_str()).any(|(i, m)| {
            let before = text[..i].chars().rev().find(|c| !c.is_whitespace());
            let after = text[i + m.len()..].chars().find(|c| !c.is_whitespace());
            before.is_some_and(|c| c.is_ascii_digit()) || after.is_some_and(|c| c.is_ascii_digit())
        })
    })
}

/// An approve word and a reject word in the same message: a decision is asked for.
fn has_approve_and_reject(text: &str) -> bool {
    let lexicon = lexicon();
    lexicon.approve.iter().any(|a| text.contains(a.as_str()))
        && lexicon.reject.iter().any(|r| text.contains(r.as_str()))
}

/// A subject dated like an issue (`Daily Dilbert 07/11/2002`, `Poem-a-Day: 09/13/02`,
/// `2002-09-01`, `1.9.2002`, `July 2002`) and with no clock time (mass mailers stamp `8/25/2002 2:18:15 PM`
/// to make each copy differ).
fn is_dated_issue(subject: &str) -> bool {
    let has_time = subject.char_indices().any(|(i, c)| {
        c == ':'
            && subject[..i].ends_with(|d: char| d.is_ascii_digit())
            && subject[i + 1..].starts_with(|d: char| d.is_ascii_digit())
    });
    if has_time {
        return false;
    }
    let tokens: Vec<&str> = subject
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | '[' | ']' | '-'))
        .filter(|t| !t.is_empty())
        .collect();
    // A month and a four-digit year: `July 2002`.
    let months = &lexicon().months;
    if tokens.windows(2).any(|pair| {
        months.iter().any(|m| m == pair[0].trim_end_matches('.'))
            && pair[1].len() == 4
            && pair[1].chars().all(|c| c.is_ascii_digit())
            && (pair[1].starts_with("19") || pair[1].starts_with("20"))
    }) {
        return true;
    }
    subject
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | '[' | ']'))
        .any(|token| {
            let token = token.trim_end_matches(['.', ':', ';']);
            let parts: Vec<&str> = token.split(['/', '-', '.']).collect();
            parts.len() == 3
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.len() <= 4 && p.chars().all(|c| c.is_ascii_digit()))
                && {
                    let lengths: Vec<usize> = parts.iter().map(|p| p.len()).collect();
                    // d/m/y or m/d/y (year of 2 or 4 digits; of 4 with dots, so that a
                    // version such as 2.6.18 is no date), or y-m-d.
                    let year = if token.contains('.') {
                        lengths[2] == 4
                    } else {
                        lengths[2] == 2 || lengths[2] == 4
                    };
                    (lengths[0] <= 2 && lengths[1] <= 2 && year)
                        || (lengths[0] == 4 && lengths[1] <= 2 && lengths[2] <= 2)
                }
        })
}

/// Whether a subject numbers or dates an issue (`Vol. 1 #48`, `Issue 12`, `9/1/2002`,
/// `July 2002`): the mark of a periodical (a tracker's `(#12)`, an order's `#12` or a clock
/// time are not).
pub fn numbered_issue(subject: &str) -> bool {
    let subject = subject.to_lowercase();
    has_issue_number(&subject) || is_dated_issue(&subject)
}

/// Issue numbering in a subject: `Issue #12`, `No. 12`, `Nr. 12`, `#12` at the start or after a
/// separator; not a tracker's `(Issue #12)`, `(#12)` or a build's `Build # 12`.
fn has_issue_number(subject: &str) -> bool {
    if subject.contains("(issue") || subject.contains("(pr") || subject.contains("(#") {
        return false;
    }
    // A number, not a code: `#120`, not a mass mailer's per-copy tag such as `#2c6e`.
    let digit_after = |i: usize, len: usize| {
        let token: String = subject[i + len..]
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect();
        !token.is_empty() && token.chars().all(|c| c.is_ascii_digit())
    };
    // `Order No. 12`, `Commande Nº 8131878`: a transaction's number, not an issue's.
    let item_before = |before: &str| {
        let last = before
            .trim_end()
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        lexicon().numbered_items.iter().any(|i| i == last)
    };
    lexicon().issue_prefixes.iter().any(|p| {
        subject
            .match_indices(p.as_str())
            .any(|(i, m)| digit_after(i, m.len()) && !item_before(&subject[..i]))
    }) || subject.match_indices('#').any(|(i, _)| {
        digit_after(i, 1)
            && (i == 0
                || [": ", "— ", "- ", "| ", "– "]
                    .iter()
                    .any(|s| subject[..i].ends_with(s))
                || numbered_title(&subject[..i]))
    })
}

/// `The Product Letter #120`: a `#` number after a title word, unless the word names a
/// transaction or a tracker's item (`Order #12`, `Invoice #3`, `Build #7`, `PR #9`).
fn numbered_title(before: &str) -> bool {
    let Some(word) = before.strip_suffix(' ') else {
        return false;
    };
    let last = word
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    !last.is_empty()
        && !last.chars().all(|c| c.is_ascii_digit())
        && !lexicon().numbered_items.iter().any(|i| i == last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cue_of_the_data_is_a_cue_and_every_phrase_cue_has_phrases() {
        let phrases = &lexicon().cue_phrases;
        for key in phrases.keys() {
            assert!(
                Cue::ALL.iter().any(|c| c.has_phrases() && c.key() == key),
                "data/mail/cues.toml: [{key}] is no cue"
            );
        }
        for cue in Cue::ALL.into_iter().filter(|c| c.has_phrases()) {
            assert!(
                phrases.get(cue.key()).is_some_and(|p| !p.is_empty()),
                "{cue:?} has no phrases"
            );
        }
    }

    #[test]
    fn a_sign_in_notice_that_says_you_may_ignore_it_asks_nothing() {
        let found = cues(
            "Neue Anmeldung bei Ihrem Konto",
            "Neue Anmeldung über Firefox in der Nähe von Graz. Wenn Sie das waren, können Sie diese E-Mail ignorieren.",
        );
        assert!(!found.contains(&Cue::Request), "{found:?}");
        assert!(found.contains(&Cue::Notice), "{found:?}");
        // The same polite verb elsewhere is still a request.
        let found = cues("Bericht", "Können Sie mir den Bericht schicken?");
        assert!(found.contains(&Cue::Request), "{found:?}");
    }

    #[test]
    fn issues_are_numbered_or_dated_but_orders_and_codes_are_not() {
        for subject in [
            "Tribune MovieMail - Vol. 1 #48",
            "Issue 45: remote teams",
            "Ashfield Online 9/1/2002",
            "Technology Network TechBlast - July 2002",
        ] {
            assert!(numbered_issue(subject), "{subject}");
        }
        for subject in [
            "Confirmation de commande Nº 8131878",
            "Order No. 5521 shipped",
            "New  Accounts #2C6E",
            "Build #77 failed",
            "Is your web site making money! 2:18:15 PM 8/25/2002",
            "WebDesign Newsletter",
        ] {
            assert!(!numbered_issue(subject), "{subject}");
        }
    }

    #[test]
    fn an_offer_letter_or_a_quote_to_confirm_sells_nothing() {
        for (subject, body) in [
            (
                "Firma pendiente: carta de oferta",
                "Revise y firme el documento.",
            ),
            ("To-dos: Migrationsplan", "- Lena: Angebot bestätigen"),
            ("Please sign: Offer letter", "Review and sign the document."),
        ] {
            let found = cues(subject, body);
            assert!(!found.contains(&Cue::Offer), "{subject}: {found:?}");
        }
        // The offer words elsewhere still sell.
        for (subject, body) in [
            ("Oferta especial", "Solo hoy."),
            ("Unser Angebot der Woche", "20 % Rabatt."),
        ] {
            assert!(cues(subject, body).contains(&Cue::Offer), "{subject}");
        }
    }

    #[test]
    fn numbered_titles_are_issue_numbers_but_orders_and_builds_are_not() {
        for subject in [
            "Your Daily Dilbert 07/11/2002",
            "DayTips' Poem-a-Day: 09/13/02",
            "Release digest 2002-09-01",
            "Technology Network TechBlast - July 2002",
            "La lettre de juillet 2002",
        ] {
            assert!(cues(subject, "").contains(&Cue::Periodic), "{subject}");
        }
        for subject in [
            "Is your web site making money! 2:18:15 PM 8/25/2002",
            "Version 1.2.3 released",
            "Linux 2.6.18 is out",
            "Meeting at 10:30",
            "May I ask about 2002 figures",
        ] {
            assert!(!cues(subject, "").contains(&Cue::Periodic), "{subject}");
        }
        for subject in [
            "The Product Letter #120",
            "Issue 45: remote teams",
            "No. 12 — spring",
            "Выпуск №7",
        ] {
            assert!(cues(subject, "").contains(&Cue::NewsletterTag), "{subject}");
        }
        for subject in [
            "Order #12345 has shipped",
            "Build #77 failed",
            "Re: PR #9 review",
            "Invoice #3",
            "New  Accounts #2C6E",
        ] {
            assert!(
                !cues(subject, "").contains(&Cue::NewsletterTag),
                "{subject}"
            );
        }
    }

    #[test]
    fn social_actions_are_found_in_several_languages() {
        for body in [
            "Priya commented on your photo.",
            "Marie a commenté votre publication.",
            "Lena hat deinen Beitrag kommentiert.",
            "A Lucía le gusta tu foto.",
            "Marco ha commentato il tuo post.",
            "Ana comentou na sua publicação.",
            "У вас новый подписчик.",
            "あなたをフォローしました。",
            "你的好友赞了你的动态。",
        ] {
            let found = cues("", body);
            assert!(found.contains(&Cue::SocialAction), "{body}: {found:?}");
            assert!(groups(&found).contains(&Group::Social), "{body}");
        }
    }
}
