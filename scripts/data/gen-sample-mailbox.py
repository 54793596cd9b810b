#!/usr/bin/env python3
"""Writes the sample Maildir (services/digest-web/sample-mailbox), its labels, the edge-case
messages (services/digest-web/fixtures/edge) and the fixture mbox (fixtures/mailbox.mbox).

All people and companies are fictional, on example.com/.org/.net (social-network notification
senders use the networks' real notification domains, which the classifier knows). Dates are
fixed (10-21 Nov 2026) so the files are reproducible: the refresh job reads the embedded sample
with --window all by default. Re-run after editing: python3 scripts/data/gen-sample-mailbox.py
"""
import base64
import email.charset
import email.utils
import os
import shutil
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "services", "digest-web")
SAMPLE = os.path.join(ROOT, "sample-mailbox")
EDGE = os.path.join(ROOT, "fixtures", "edge")
ME = "Dana Whitfield <dana@example.com>"


def date(day, hour, minute=0):
    return f"{['Tue','Wed','Thu','Fri','Sat','Sun','Mon','Tue','Wed','Thu','Fri','Sat'][day-10]}, {day} Nov 2026 {hour:02d}:{minute:02d}:00 +0000"


def text_part(body, charset="utf-8", cte=None):
    part = MIMEText("", "plain", charset)
    part.set_payload(None)
    del part["Content-Transfer-Encoding"]
    cs = email.charset.Charset(charset)
    if cte == "qp":
        cs.body_encoding = email.charset.QP
    elif cte == "base64":
        cs.body_encoding = email.charset.BASE64
    elif cte == "8bit":
        cs.body_encoding = None
    part.set_payload(body, cs)
    return part


def html_part(html, charset="utf-8", cte="qp"):
    part = MIMEText("", "html", charset)
    del part["Content-Transfer-Encoding"]
    cs = email.charset.Charset(charset)
    cs.body_encoding = email.charset.QP if cte == "qp" else email.charset.BASE64
    part.set_payload(html, cs)
    return part


def enc_word(text, charset):
    """An RFC 2047 encoded word (B encoding) with the MIME charset name as given."""
    return f"=?{charset}?b?{base64.b64encode(text.encode(charset)).decode()}?="


def addr(frm):
    """Encodes a non-ASCII display name; the address stays readable."""
    name, address = email.utils.parseaddr(frm)
    if name and not name.isascii():
        return f"{enc_word(name, 'utf-8')} <{address}>"
    return frm


def headers(msg, frm, subject, day, hour, mid, extra=None, subject_charset=None, to=ME):
    msg["From"] = addr(frm)
    msg["To"] = to
    if subject_charset:
        msg["Subject"] = enc_word(subject, subject_charset)
    elif not subject.isascii():
        msg["Subject"] = enc_word(subject, "utf-8")
    else:
        msg["Subject"] = subject
    if day is not None:
        msg["Date"] = date(day, hour)
    msg["Message-ID"] = f"<{mid}>"
    for k, v in (extra or {}).items():
        msg[k] = v
    return msg


def plain(frm, subject, day, hour, mid, body, charset="utf-8", cte=None, extra=None, subject_charset=None):
    msg = text_part(body, charset, cte)
    return headers(msg, frm, subject, day, hour, mid, extra, subject_charset)


def alternative(frm, subject, day, hour, mid, body, html, extra=None, charset="utf-8"):
    msg = MIMEMultipart("alternative")
    msg.attach(text_part(body, charset, "qp"))
    msg.attach(html_part(html, charset))
    return headers(msg, frm, subject, day, hour, mid, extra)


def html_only(frm, subject, day, hour, mid, html, extra=None, cte="qp"):
    msg = html_part(html, "utf-8", cte)
    return headers(msg, frm, subject, day, hour, mid, extra)


def with_attachment(frm, subject, day, hour, mid, body, filename, data, extra=None):
    msg = MIMEMultipart("mixed")
    msg.attach(text_part(body, "utf-8", "qp"))
    att = MIMEApplication(data, Name=filename)
    att["Content-Disposition"] = f'attachment; filename="{filename}"'
    msg.attach(att)
    return headers(msg, frm, subject, day, hour, mid, extra)


def bulk(list_id, esp=None):
    h = {
        "List-Id": f"<{list_id}>",
        "List-Unsubscribe": f"<https://{list_id.split('.',1)[1]}/unsubscribe?u=dana>, <mailto:unsubscribe@{list_id.split('.',1)[1]}>",
        "Precedence": "bulk",
    }
    if esp == "ses":
        h["X-SES-Outgoing"] = "2026.11.12-54.240.9.1"
        h["Feedback-ID"] = "1.us-east-1.abc123:AmazonSES"
    elif esp == "mailgun":
        h["X-Mailgun-Sid"] = "WyI0ZTk2NiIsICJkYW5hQGV4YW1wbGUuY29tIl0="
        h["X-Mailgun-Tag"] = "campaign"
    elif esp == "campaign":
        h["X-CampaignID"] = "nov-2026-sale-17"
        h["Feedback-ID"] = "17:nov-sale:campaigns:examplemailer"
    return h


def social(domain, kind):
    return {"X-Auto-Response-Suppress": "All", "Precedence": "bulk", "Auto-Submitted": "auto-generated",
            "List-Unsubscribe": f"<https://{domain}/settings/notifications>", "X-Notification-Type": kind}


def messages():
    m = []  # (category, message)
    # ---------------- Need-Action ----------------
    m.append(("Need-Action", plain("Priya Raman <priya.raman@example.com>", "Can you review the Q4 budget draft by Friday?", 20, 9, "q4-budget-1@example.com",
        "Hi Dana,\n\nCould you review the Q4 budget draft before Friday noon? Finance needs our sign-off\nto close the quarter. The sheet is in the shared drive under Budgets/Q4.\n\nThe open questions are the travel line and the two new contractor roles.\n\nThanks,\nPriya\n-- \nPriya Raman, Head of Operations")))
    m.append(("Need-Action", plain("Marc Dubois <marc.dubois@example.net>", "Réunion de lancement : pouvez-vous confirmer mardi ?", 19, 14, "lancement-77@example.net",
        "Bonjour Dana,\n\nPouvez-vous confirmer votre présence à la réunion de lancement mardi à 10h ?\nNous devons réserver la salle à Besançon avant jeudi.\n\nMerci d'avance,\nMarc", charset="iso-8859-1", cte="qp", subject_charset="iso-8859-1")))
    m.append(("Need-Action", plain("Kenji Sato <kenji.sato@example.com>", "契約書の確認をお願いします", 18, 2, "keiyaku-3@example.com",
        "Dana さん\n\n来週月曜日までに契約書の最終版を確認していただけますか。\n修正があれば金曜日までにご連絡ください。\n\nよろしくお願いします。\n佐藤", charset="iso-2022-jp", cte="8bit", subject_charset="iso-2022-jp")))
    m.append(("Need-Action", with_attachment("Tomás Herrera <tomas@example.org>", "Please sign the vendor agreement (attached)", 21, 8, "vendor-agreement-9@example.org",
        "Hi Dana,\n\nPlease sign the attached vendor agreement and send it back by Monday 23 November.\nLegal has already approved the changes to clause 7.\n\nBest,\nTomás", "agreement.pdf", b"%PDF-1.4\n% fictional agreement\n" * 40)))
    m.append(("Need-Action", plain("Aisha Bello <aisha.bello@example.net>", "Quick question about the onboarding plan", 21, 11, "onboarding-q-2@example.net",
        "Hey Dana,\n\nQuick question: do you want the new hires to start with the security training\nor with the product tour? I need to send the schedule to HR tomorrow morning.\n\nAisha")))
    m.append(("Need-Action", plain("Lena Novak <lena.novak@example.com>", "Re: Conference talk - need your slides", 20, 16, "talk-slides-4@example.com",
        "Hi Dana,\n\nThe organisers asked for all slides by Wednesday 25 November. Can you send me yours\nso I can merge them into the session deck?\n\nOn Tue, Nov 17, 2026 at 10:02 Dana wrote:\n> I'll present the migration story.\n> Twenty minutes is fine.\n\nLena",
        extra={"In-Reply-To": "<talk-1@example.com>"})))
    m.append(("Need-Action", plain("Robert Chen <robert.chen@example.com>", "Approval needed: purchase order #4471", 19, 10, "po-4471@example.com",
        "Dana,\n\nI need your approval for purchase order #4471 (three laptops for the support team,\n4,350 EUR). Could you approve it in the portal today? The supplier's price expires tonight.\n\nRobert", cte="base64")))
    m.append(("Need-Action", plain("Olga Petrova <olga.petrova@example.org>", "Отчёт за ноябрь: нужна ваша подпись", 18, 9, "otchet-11@example.org",
        "Здравствуйте, Dana!\n\nПожалуйста, подпишите отчёт за ноябрь до среды. Без подписи бухгалтерия\nне сможет закрыть месяц.\n\nСпасибо,\nОльга", charset="koi8-r", cte="8bit", subject_charset="koi8-r")))
    m.append(("Need-Action", alternative("Sam Okafor <sam.okafor@example.net>", "Can we move our 1:1 to Thursday?", 21, 7, "one-on-one-5@example.net",
        "Hi Dana,\n\nSomething came up on Wednesday. Can we move our 1:1 to Thursday at 15:00?\nLet me know if that works for you.\n\nSam",
        "<p>Hi Dana,</p><p>Something came up on Wednesday. Can we move our 1:1 to <b>Thursday at 15:00</b>?<br>Let me know if that works for you.</p><p>Sam</p>")))
    m.append(("Need-Action", plain("Grace Liu <grace.liu@example.com>", "Interview feedback due tomorrow", 20, 18, "interview-fb-8@example.com",
        "Hi Dana,\n\nReminder: your feedback on yesterday's backend candidate is due tomorrow at 12:00.\nPlease fill in the scorecard so we can decide on the offer.\n\nGrace")))
    m.append(("Need-Action", plain("Hannah Fischer <hannah.fischer@example.com>", "Draft contract — your comments?", None, 0, "draft-contract-6@example.com",
        "Hi Dana,\n\nWhat do you think of the draft contract for the Lisbon office? I'd like your\ncomments before I send it to the landlord on Thursday.\n\nHannah")))
    m.append(("Need-Action", plain("Yusuf Demir <yusuf.demir@example.org>", "Please update the on-call rota before the weekend", 20, 13, "oncall-rota-2@example.org",
        "Dana,\n\nThe on-call rota for December still has two empty weekends. Please update it\nbefore Saturday so people can plan their holidays.\n\nThanks,\nYusuf")))
    # ---------------- FYI ----------------
    m.append(("FYI", plain("Northwind Books <orders@northwind.example.com>", "Your order #NW-88213 has shipped", 20, 15, "ship-88213@northwind.example.com",
        "Hello Dana,\n\nGood news: your order #NW-88213 (2 items) has shipped and should arrive on 24 November.\nTracking number: EX123456789.\n\nNorthwind Books", extra={"Auto-Submitted": "auto-generated", "Feedback-ID": "orders:northwind"})))
    m.append(("FYI", plain("Café Lumière <receipts@cafe-lumiere.example.net>", "Receipt for your purchase – €12.40", 19, 8, "receipt-551@cafe-lumiere.example.net",
        "Thank you for your visit!\n\nReceipt no. 551\n2 × café crème   €7.00\n1 × croissant     €2.40\n1 × jus d’orange  €3.00\nTotal            €12.40\n\nPaid by card ending 4242.", charset="windows-1252", cte="qp")))
    m.append(("FYI", alternative("CI Bot <ci@build.example.com>", "[build] main #1842 failed: integration tests", 21, 6, "build-1842@build.example.com",
        "Build #1842 on main failed.\n\nStage: integration tests\nFailing test: checkout::refund_is_idempotent\nCommit: 9f2c1ab by Lena Novak\n\nSee the build log for details.",
        "<html><body><h2>Build #1842 failed</h2><p>Stage: integration tests</p><p>Failing test: <code>checkout::refund_is_idempotent</code></p></body></html>",
        extra={"Auto-Submitted": "auto-generated"})))
    m.append(("FYI", plain("Security Alerts <security@accounts.example.com>", "New sign-in to your account from Firefox on Linux", 21, 9, "signin-771@accounts.example.com",
        "We noticed a new sign-in to your account.\n\nDevice: Firefox on Linux\nLocation: Lyon, France\nTime: 21 November 2026, 09:12 UTC\n\nIf this was you, no action is needed.", extra={"Auto-Submitted": "auto-generated"})))
    m.append(("FYI", plain("Ivan Kowalski <ivan@example.org>", "Re: [rust-users] Best way to share a pool between actix workers?", 20, 12, "rust-users-991@example.org",
        "I'd keep one pool in app data and clone the handle; the pool is already an Arc inside.\nWe did this in production for two years without trouble.\n\nIvan",
        extra={"List-Id": "Rust users discussion <rust-users.lists.example.org>", "List-Post": "<mailto:rust-users@lists.example.org>", "In-Reply-To": "<rust-users-990@example.org>"})))
    m.append(("FYI", plain("Mei Zhang <mei.zhang@example.net>", "Re: [ops-team] Database upgrade went fine", 20, 22, "ops-team-45@example.net",
        "The PostgreSQL upgrade finished at 21:40 with no errors. Replication caught up in\nfour minutes. I'll keep an eye on the slow-query log tomorrow.\n\nMei",
        extra={"List-Id": "<ops-team.lists.example.com>", "List-Post": "<mailto:ops-team@lists.example.com>"})))
    m.append(("FYI", plain("Calendar <calendar@example.com>", "Accepted: Architecture review @ Mon 23 Nov 14:00", 19, 17, "cal-accept-3@example.com",
        "Grace Liu has accepted this invitation.\n\nArchitecture review\nMonday 23 November 2026, 14:00-15:00 (UTC)\nRoom: Atlas", extra={"Auto-Submitted": "auto-replied"})))
    m.append(("FYI", plain("王芳 <wang.fang@example.org>", "服务器维护通知", 18, 4, "weihu-12@example.org",
        "各位同事：\n\n本周六凌晨两点至四点，我们将对邮件服务器进行例行维护。\n维护期间邮件可能会延迟送达。\n\n王芳", charset="gb2312", cte="base64", subject_charset="gb2312")))
    m.append(("FYI", plain("Bank of Example <alerts@bank.example.com>", "Your statement for November is ready", 17, 6, "statement-11@bank.example.com",
        "Your November statement for the account ending 0042 is ready in online banking.\nClosing balance: 3,214.55 EUR.", extra={"Auto-Submitted": "auto-generated", "X-SES-Outgoing": "2026.11.17-54.240.9.2"})))
    m.append(("FYI", plain("Cloud Monitor <alerts@monitor.example.net>", "[RESOLVED] High CPU on api-2", 21, 3, "alert-9981@monitor.example.net",
        "RESOLVED: CPU usage on api-2 is back under 70% after 12 minutes above 95%.\nStarted: 02:41 UTC. Resolved: 02:53 UTC.", extra={"Auto-Submitted": "auto-generated"})))
    m.append(("FYI", plain("Airline Example <noreply@airline.example.com>", "Your boarding pass: LYS → LIS, 27 Nov", 20, 7, "boarding-5521@airline.example.com",
        "Your boarding pass for flight EX 481 from Lyon to Lisbon on 27 November is attached to\nyour booking. Boarding closes at 07:35. Seat 14C.", extra={"Auto-Submitted": "auto-generated"})))
    m.append(("FYI", plain("Priya Raman <priya.raman@example.com>", "FYI: office closed on 1 December", 18, 11, "office-closed-1@example.com",
        "Hi all,\n\nJust so you know: the office will be closed on Tuesday 1 December for the electrical\ninspection. Work from home that day.\n\nPriya", cte="qp")))
    # broken header line: still parses
    broken = plain("Repo Bot <noreply@git.example.com>", "Still readable: pull request #311 merged", 19, 20, "pr-311@git.example.com",
        "Pull request #311 \"Faster cache lookups\" by Mei Zhang was merged into main.\n3 files changed, 120 insertions, 45 deletions.", extra={"Auto-Submitted": "auto-generated"})
    m.append(("FYI", broken))
    # ---------------- Newsletter ----------------
    m.append(("Newsletter", alternative("This Week in Rust <editor@rustweekly.example.org>", "This Week in Rust #620: async closures, a faster compiler", 19, 6, "twir-620@rustweekly.example.org",
        "Hello Rustaceans!\n\nThis week: async closures are stable, the compiler got 8% faster on large crates,\nand the community picked a new logo for the survey.\n\nUpdates from the team: the 2026 edition guide is complete.\nCrate of the week: mail-parser, a fast e-mail parser.\n\nRead online: https://rustweekly.example.org/620",
        "<h1>This Week in Rust #620</h1><p>This week: <b>async closures</b> are stable, the compiler got 8% faster.</p><h2>Crate of the week</h2><p>mail-parser</p>",
        extra=bulk("twir.rustweekly.example.org", "mailgun"))))
    m.append(("Newsletter", html_only("The Morning Brief <brief@news.example.com>", "Morning Brief: energy prices, a new space telescope, and rail strikes", 21, 5, "brief-2026-11-21@news.example.com",
        "<html><head><style>p{color:#333}</style></head><body><h1>Morning Brief</h1><p>Energy prices fell for the third week in a row as storage reached record levels.</p><p>The new space telescope sent its first images of the Andromeda galaxy.</p><p>Rail strikes will disrupt travel in three countries on Monday.</p><p><a href='https://news.example.com/unsub'>Unsubscribe</a></p></body></html>",
        extra=bulk("brief.news.example.com", "ses"))))
    m.append(("Newsletter", alternative("Design Notes <hello@designnotes.example.net>", "Issue 88: colour systems that scale", 17, 9, "dn-88@designnotes.example.net",
        "Issue 88\n\nThis issue is about colour systems: how to build tokens that scale from one product\nto ten, why contrast ratios matter, and three case studies from public design systems.\n\nAlso: a reading list on typography.",
        "<h1>Issue 88: colour systems that scale</h1><p>Tokens, contrast ratios and three case studies.</p>",
        extra=bulk("notes.designnotes.example.net"))))
    m.append(("Newsletter", plain("Data Engineering Digest <digest@dataeng.example.com>", "Data Engineering Digest: lakehouses, streaming joins, DuckDB tips", 18, 7, "ded-45@dataeng.example.com",
        "In this edition:\n\n1. Lakehouse formats compared: Iceberg, Delta and Hudi in 2026.\n2. Streaming joins without tears: watermarks explained.\n3. Five DuckDB tips for analysts.\n\nThanks for reading the Data Engineering Digest.",
        extra=bulk("weekly.dataeng.example.com", "ses"))))
    m.append(("Newsletter", plain("Городские новости <news@gorod.example.org>", "Новости недели: новый парк и ремонт моста", 16, 8, "gorod-46@gorod.example.org",
        "Новости недели\n\nВ центре города открылся новый парк с детской площадкой.\nРемонт моста через реку продлится до весны.\nВ субботу пройдёт ярмарка местных фермеров.",
        charset="koi8-r", cte="qp", extra=bulk("weekly.gorod.example.org"), subject_charset="koi8-r")))
    m.append(("Newsletter", alternative("Product Weekly <team@productweekly.example.com>", "Product Weekly: pricing experiments and roadmap rituals", 20, 6, "pw-201@productweekly.example.com",
        "This week in Product Weekly:\n\nPricing experiments that did not backfire, how three teams run quarterly roadmap\nreviews, and an interview with a product lead about saying no.",
        "<p>This week: <i>pricing experiments</i>, roadmap rituals, and an interview.</p>",
        extra=bulk("weekly.productweekly.example.com", "mailgun"))))
    m.append(("Newsletter", html_only("Security Roundup <roundup@secnews.example.net>", "Security Roundup: OpenSSH patch, phishing kits, passkeys adoption", 21, 4, "sr-77@secnews.example.net",
        "<html><body><h2>Security Roundup</h2><ul><li>An OpenSSH patch fixes a pre-auth memory leak.</li><li>Phishing kits now target passkey enrolment pages.</li><li>Passkeys adoption doubled this year among banks.</li></ul></body></html>",
        extra=bulk("roundup.secnews.example.net"), cte="base64")))
    m.append(("Newsletter", plain("Gardening Monthly <letters@garden.example.org>", "November in the garden: mulching and bulbs", 14, 10, "gm-1126@garden.example.org",
        "Dear gardener,\n\nNovember is the month to mulch your beds and plant tulip bulbs. This letter covers\nwhich mulch to choose, how deep to plant bulbs, and protecting pots from frost.",
        extra=bulk("monthly.garden.example.org"))))
    m.append(("Newsletter", plain("The Indie Dev Letter <me@indiedev.example.net>", "Indie Dev Letter #34: shipping a game in six months", 15, 18, "idl-34@indiedev.example.net",
        "Hi friends,\n\nThis month I wrote about shipping a small game in six months: cutting scope,\nplaytesting early, and what the launch numbers looked like.",
        extra=bulk("letter.indiedev.example.net", "campaign"))))
    m.append(("Newsletter", alternative("AI Research Notes <notes@airesearch.example.com>", "AI Research Notes: small models, long context, evaluation", 19, 16, "arn-12@airesearch.example.com",
        "This week's papers: small models that match bigger ones on reasoning benchmarks, a study of\nlong-context retrieval, and a critique of leaderboard evaluation.",
        "<p>This week's papers: small models, long context, evaluation.</p>",
        extra=bulk("notes.airesearch.example.com", "ses"))))
    # ---------------- Promotional ----------------
    m.append(("Promotional", html_only("Contoso Outlet <deals@contoso-outlet.example.com>", "Black Friday starts now: 40% off everything", 20, 10, "bf-2026-1@contoso-outlet.example.com",
        "<html><body><div style='font-size:32px'>BLACK FRIDAY</div><p>Save <b>40% off everything</b> this weekend only. Free shipping on orders over 50 EUR.</p><p><a href='https://contoso-outlet.example.com/shop'>Shop now</a></p></body></html>",
        extra=bulk("deals.contoso-outlet.example.com", "campaign"))))
    m.append(("Promotional", alternative("Fabrikam Shoes <news@fabrikam.example.net>", "Your exclusive code: SAVE20 on winter boots", 19, 12, "fab-boots-1@fabrikam.example.net",
        "Winter is coming. Use code SAVE20 for 20% off our new winter boots until Sunday.\nLimited stock, while supplies last.",
        "<p>Use code <b>SAVE20</b> for 20% off winter boots until Sunday.</p>",
        extra=bulk("promo.fabrikam.example.net", "mailgun"))))
    m.append(("Promotional", html_only("Tailspin Travel <offers@tailspin.example.com>", "Flash sale: Lisbon from 49 EUR ✈", 18, 13, "ts-flash-7@tailspin.example.com",
        "<html><body><h1>Flash sale</h1><p>Fly to Lisbon from 49 EUR, Porto from 39 EUR. Book by midnight!</p><p>Terms apply.</p></body></html>",
        extra=bulk("offers.tailspin.example.com", "ses"))))
    m.append(("Promotional", plain("Wide World Importers <hello@wwi.example.org>", "Last chance: free gift with every order", 21, 10, "wwi-gift-3@wwi.example.org",
        "Last chance! Order today and get a free tote bag with every purchase. Offer ends at midnight.\nShop the new collection now.",
        extra=bulk("hello.wwi.example.org", "campaign"))))
    m.append(("Promotional", alternative("Adventure Works <shop@adventure-works.example.com>", "New arrivals you'll love + 15% off", 17, 15, "aw-new-5@adventure-works.example.com",
        "New arrivals: hiking jackets, trail shoes and insulated bottles. Members get 15% off this week.",
        "<p><b>New arrivals</b> + 15% off for members</p>", extra=bulk("shop.adventure-works.example.com", "mailgun"))))
    m.append(("Promotional", html_only("Litware Software <sales@litware.example.net>", "Upgrade to Litware Pro — 3 months free", 16, 14, "lw-pro-2@litware.example.net",
        "<html><body><p>Upgrade to <b>Litware Pro</b> today and get 3 months free. Unlimited projects, priority support.</p><p>Offer valid until 30 November.</p></body></html>",
        extra=bulk("sales.litware.example.net", "ses"))))
    m.append(("Promotional", plain("Coho Winery <club@coho.example.com>", "Holiday wine boxes are back (members save 25%)", 19, 17, "coho-box-4@coho.example.com",
        "Our holiday wine boxes are back! Six bottles, hand-picked by our sommelier. Club members save 25%.\nOrder by 10 December for delivery before the holidays.",
        extra=bulk("club.coho.example.com"))))
    m.append(("Promotional", html_only("Proseware Gadgets <promo@proseware.example.org>", "Cyber Monday preview: deals up to 60% off", 21, 12, "pg-cm-1@proseware.example.org",
        "<html><body><h1>Cyber Monday preview</h1><p>Headphones, chargers and smart lights up to 60% off. Subscribers shop first.</p></body></html>",
        extra=bulk("promo.proseware.example.org", "campaign"))))
    m.append(("Promotional", plain("Blue Yonder Fitness <team@blueyonder.example.net>", "Join now: first month for 1 EUR", 15, 9, "by-join-9@blueyonder.example.net",
        "Start the new year early: your first month at Blue Yonder Fitness costs just 1 EUR. Cancel anytime.",
        extra=bulk("team.blueyonder.example.net", "mailgun"))))
    m.append(("Promotional", alternative("Margie's Travel <deals@margies.example.com>", "=?utf-8?q?Winter_getaways_=E2=80=93_save_30=25?=", 20, 19, "mt-winter-2@margies.example.com",
        "Winter getaways: save 30% on ski chalets and spa hotels. Book before 5 December.",
        "<p>Save <b>30%</b> on winter getaways.</p>", extra=bulk("deals.margies.example.com", "ses"))))
    # ---------------- Social ----------------
    def soc(frm, subject, day, hour, mid, body, domain, kind):
        return plain(frm, subject, day, hour, mid, body, extra=social(domain, kind))
    m.append(("Social", soc("LinkedIn <messages-noreply@linkedin.com>", "Aisha Bello wants to connect", 20, 8, "li-conn-1@linkedin.com",
        "Aisha Bello, Engineering Manager at Example Corp, wants to connect with you.\nAccept or ignore the invitation.", "linkedin.com", "invitation")))
    m.append(("Social", soc("LinkedIn <notifications-noreply@linkedin.com>", "Your post got 37 reactions", 21, 9, "li-react-2@linkedin.com",
        "Your post about the database migration got 37 reactions and 6 comments this week.", "linkedin.com", "reactions")))
    m.append(("Social", soc("Facebook <notification@facebookmail.com>", "Sam Okafor tagged you in a photo", 19, 20, "fb-tag-3@facebookmail.com",
        "Sam Okafor tagged you in a photo from the team dinner.", "facebookmail.com", "tag")))
    m.append(("Social", soc("Mastodon <notifications@mastodon.social>", "Ivan Kowalski mentioned you", 20, 21, "mast-mention-4@mastodon.social",
        "Ivan Kowalski (@ivan@mastodon.social) mentioned you: \"@dana great talk on caching yesterday!\"", "mastodon.social", "mention")))
    m.append(("Social", soc("X <notify@x.com>", "Mei Zhang and 4 others liked your post", 18, 19, "x-like-5@x.com",
        "Mei Zhang and 4 others liked your post: \"Shipping the new digest today.\"", "x.com", "likes")))
    m.append(("Social", soc("Meetup <info@meetup.com>", "New event: Rust Lyon meetup on 3 December", 17, 12, "meetup-6@meetup.com",
        "Rust Lyon posted a new event: talks on embedded Rust and async, 3 December at 19:00.\n42 members are going.", "meetup.com", "event")))
    m.append(("Social", soc("Instagram <no-reply@mail.instagram.com>", "grace.liu started following you", 16, 22, "ig-follow-7@mail.instagram.com",
        "grace.liu started following you. See their photos and follow back.", "mail.instagram.com", "follow")))
    m.append(("Social", soc("Reddit <noreply@redditmail.com>", "Trending in r/rust: \"Why our builds got 3x faster\"", 21, 13, "reddit-8@redditmail.com",
        "A post is trending in a community you follow: \"Why our builds got 3x faster\" with 812 upvotes.", "redditmail.com", "digest")))
    m.append(("Social", soc("LinkedIn <jobs-noreply@linkedin.com>", "Hannah Fischer commented on your post", 19, 8, "li-comment-9@linkedin.com",
        "Hannah Fischer commented on your post: \"Congrats on the launch!\"", "linkedin.com", "comment")))
    m.append(("Social", soc("Facebook <notification@facebookmail.com>", "You have 3 new friend suggestions", 15, 18, "fb-sugg-10@facebookmail.com",
        "People you may know: Robert Chen, Lena Novak and Tomás Herrera.", "facebookmail.com", "suggestions")))
    m.append(("Social", soc("Strava <no-reply@strava.com>", "Yusuf Demir gave you kudos", 21, 18, "strava-11@strava.com",
        "Yusuf Demir gave you kudos on your Morning Run (8.2 km).", "strava.com", "kudos")))
    return m


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def to_bytes(msg):
    return msg.as_bytes(policy=email.policy.SMTP) if False else msg.as_string().replace("\n", "\r\n").encode("utf-8", "surrogateescape")


def main():
    import email.policy  # noqa: F401
    for sub in ("cur", "new", "tmp"):
        d = os.path.join(SAMPLE, sub)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        open(os.path.join(d, ".gitkeep"), "w").close()
    labels = []
    for i, (category, msg) in enumerate(messages(), start=1):
        data = to_bytes(msg)
        if "pr-311@git.example.com" in msg["Message-ID"]:
            # a broken header: a line with no colon and a bogus folded line, as seen in the wild
            data = data.replace(b"Subject:", b"X-Broken header line without colon\r\n\tcontinued oddly\r\nSubject:", 1)
        name = f"17632{i:05d}.M{i}P1.sample.example.com"
        write_bytes(os.path.join(SAMPLE, "cur", name + ":2,S"), data)
        labels.append(f"{name}\t{category}")
    with open(os.path.join(SAMPLE, "labels.tsv"), "w") as f:
        f.write("\n".join(labels) + "\n")
    print(f"wrote {len(labels)} messages to {SAMPLE}")
    write_edge()
    write_mbox()


def write_edge():
    os.makedirs(EDGE, exist_ok=True)
    e = {}
    e["iso-8859-1-qp"] = plain("Élodie <elodie@example.net>", "Café demain ?", 20, 9, "edge-1@example.net",
        "On se voit pour la réunion à Besançon demain ? Le café est offert.", charset="iso-8859-1", cte="qp", subject_charset="iso-8859-1")
    e["windows-1252-smart-quotes"] = plain("Finance <finance@example.com>", "“Quarterly” figures", 20, 9, "edge-2@example.com",
        "The “quarterly” figures are in: it’s €40 under budget — good news.", charset="windows-1252", cte="qp", subject_charset="windows-1252")
    e["iso-2022-jp"] = plain("Kenji <kenji@example.com>", "会議の件", 20, 9, "edge-3@example.com",
        "明日の会議は十時からです。", charset="iso-2022-jp", cte="8bit", subject_charset="iso-2022-jp")
    e["gb2312-base64"] = plain("Wang <wang@example.org>", "会议通知", 20, 9, "edge-4@example.org",
        "请于周五前提交报告。", charset="gb2312", cte="base64", subject_charset="gb2312")
    e["koi8-r"] = plain("Olga <olga@example.org>", "Отчёт", 20, 9, "edge-5@example.org",
        "Пожалуйста, проверьте отчёт.", charset="koi8-r", cte="8bit", subject_charset="koi8-r")
    msg = plain("Mixed <mixed@example.com>", "x", 20, 9, "edge-6@example.com", "This subject has mixed encoded words.")
    del msg["Subject"]
    msg["Subject"] = "=?iso-8859-1?q?=DCn=EFc=F6d=E9?= and =?utf-8?b?YXNjaWk=?="
    e["rfc2047-mixed-subject"] = msg
    e["html-only-with-style"] = html_only("Team <team@example.net>", "Weekly update", 20, 9, "edge-7@example.net",
        "<html><head><style>.x{color:red}</style><script>var a=1;</script></head><body><p>Launch moved to <b>Monday</b>.</p></body></html>")
    raw = {}
    raw["missing-boundary"] = (b"From: a@example.com\r\nSubject: Broken multipart\r\nDate: Fri, 20 Nov 2026 09:00:00 +0000\r\n"
                               b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed\r\n\r\nno boundary parameter, so no parts\r\n")
    raw["unknown-charset"] = (b"From: b@example.com\r\nSubject: Unknown charset\r\nDate: Fri, 20 Nov 2026 09:00:00 +0000\r\n"
                              b"Content-Type: text/plain; charset=x-unknown-2000\r\n\r\nplain words survive\r\n")
    raw["broken-headers"] = (b"From: c@example.com\r\nThis line is not a header\r\nDate: not a date at all\r\n"
                             b"Subject: Still readable\r\nContent-Type: text/plain; charset=\"utf-8\r\n\r\nbody after broken headers\r\n")
    raw["no-date-no-message-id"] = (b"From: d@example.com\r\nSubject: No date\r\n\r\nUse the delivery time instead.\r\n")
    raw["binary-garbage"] = bytes(range(256)) * 8
    for name, msg in e.items():
        write_bytes(os.path.join(EDGE, name + ".eml"), to_bytes(msg))
    for name, data in raw.items():
        write_bytes(os.path.join(EDGE, name + ".eml"), data)
    print(f"wrote {len(e) + len(raw)} edge cases to {EDGE}")


def write_mbox():
    picks = messages()[::5]  # 12 messages across the categories
    out = []
    for category, msg in picks:
        data = to_bytes(msg).replace(b"\r\n", b"\n")
        lines = [(b">" + l if l.startswith(b"From ") else l) for l in data.split(b"\n")]
        out.append(b"From sender@example.com Fri Nov 20 10:00:00 2026\n" + b"\n".join(lines) + b"\n")
    out.append(b"From broken@example.com Fri Nov 20 10:00:00 2026\n" + bytes(range(1, 200)) + b"\n\n")
    write_bytes(os.path.join(ROOT, "fixtures", "mailbox.mbox"), b"".join(out))
    print(f"wrote {len(picks) + 1} messages to fixtures/mailbox.mbox")


if __name__ == "__main__":
    main()
