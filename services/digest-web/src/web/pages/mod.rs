//! The two HTML pages: templates (parsed once, embedded in the binary so a deployment needs
//! no template directory), the data they show, and the server-side SVG charts.
//!
//! Tera autoescapes every `.html` template, so email subjects, senders and snippets are
//! always shown as text. The digest's sections (up to hundreds of emails) are rendered once
//! per digest by [`Templates::render_sections`], through the same autoescaping, and spliced
//! into the page as finished HTML by [`Templates::render_index`].

pub mod handlers;

use domain::email::{Category, Digest};
use serde::Serialize;
use tera::{Context, Tera};

use crate::store::queries::{ErrorRecord, MetricsReport, RunSummary};
use crate::store::test_runs::StoredTestRun;
use crate::web::conversations::{ActingPanel, Marks};
use crate::web::diagnostics::Suite;
use crate::web::refresh::ScriptStatus;

/// Every template, by name, as compiled into the binary.
pub const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../../templates/base.html")),
    ("index.html", include_str!("../../../templates/index.html")),
    ("tests.html", include_str!("../../../templates/tests.html")),
    (
        "email_item.html",
        include_str!("../../../templates/email_item.html"),
    ),
    (
        "digest_sections.html",
        include_str!("../../../templates/digest_sections.html"),
    ),
];

/// The parsed templates.
pub struct Templates {
    tera: Tera,
}

impl Templates {
    /// Parses every template once.
    pub fn load() -> Result<Self, tera::Error> {
        let mut tera = Tera::default();
        tera.add_raw_templates(TEMPLATES.iter().copied())?;
        tera.autoescape_on(vec![".html"]);
        Ok(Self { tera })
    }

    /// Renders `name` with `context`.
    pub fn render(&self, name: &str, context: &Context) -> Result<String, tera::Error> {
        self.tera.render(name, context)
    }

    /// The digest page: `index.html` rendered with `page`'s context, with `page.sections_html`
    /// in place of its [`SECTIONS_MARKER`]. Splicing rather than passing the sections through
    /// the context spares Tera copying and re-checking a large string on every request. Safe:
    /// everything Tera renders is escaped, so only the template itself can contain `<!--`.
    pub fn render_index(&self, page: &IndexPage<'_>) -> Result<String, tera::Error> {
        let rendered = self.tera.render("index.html", &page.context())?;
        let at = rendered
            .find(SECTIONS_MARKER)
            .ok_or_else(|| tera::Error::msg("index.html lacks the digest sections marker"))?;
        let mut body = String::with_capacity(rendered.len() + page.sections_html.len());
        body.push_str(&rendered[..at]);
        body.push_str(page.sections_html);
        body.push_str(&rendered[at + SECTIONS_MARKER.len()..]);
        Ok(body)
    }

    /// The digest's category sections and email rows, the part of the page that depends on
    /// the digest alone (see [`Templates::render_index`]).
    pub fn render_sections(&self, digest: &Digest) -> Result<String, tera::Error> {
        self.render_sections_marked(digest, &Marks::new())
    }

    /// [`Templates::render_sections`] with `marks` shown on the emails they name (what changes
    /// between two versions of the digest: unsubscribes made since, replies). Rendered per
    /// request, so only when there are marks.
    pub fn render_sections_marked(
        &self,
        digest: &Digest,
        marks: &Marks,
    ) -> Result<String, tera::Error> {
        let mut ctx = Context::new();
        ctx.insert("sections", &sections(digest));
        ctx.insert("category_names", &Category::ALL.map(|c| c.as_str()));
        ctx.insert("marks", marks);
        self.tera.render("digest_sections.html", &ctx)
    }
}

/// Where `index.html` takes the digest's sections.
pub const SECTIONS_MARKER: &str = "<!-- digest sections -->";

/// Emails shown open in a category before the rest fold into a `<details>`.
pub const SHOWN_OPEN: usize = 5;

/// One category section of the digest page.
#[derive(Debug, Serialize)]
pub struct Section {
    /// Spec name, e.g. `Need-Action`.
    pub name: &'static str,
    /// CSS slug, e.g. `need-action`.
    pub slug: String,
    /// Emails in it.
    pub count: usize,
    /// The summary, if the job wrote one.
    pub summary: Option<String>,
    /// Which path wrote the summary (`offline` or `llm:<model>`), when the job said so.
    pub summary_engine: Option<String>,
    /// The first [`SHOWN_OPEN`] emails.
    pub shown: Vec<domain::email::EmailItem>,
    /// The rest (collapsed).
    pub folded: Vec<domain::email::EmailItem>,
}

/// The sections of `digest`, in display order.
pub fn sections(digest: &Digest) -> Vec<Section> {
    Category::ALL
        .into_iter()
        .map(|c| {
            let items = digest.categories.get(&c).cloned().unwrap_or_default();
            let count = items.len();
            let mut shown = items;
            let folded = if shown.len() > SHOWN_OPEN {
                shown.split_off(SHOWN_OPEN)
            } else {
                Vec::new()
            };
            Section {
                name: c.as_str(),
                slug: c.as_str().to_ascii_lowercase(),
                count,
                summary: digest.summaries.get(&c).cloned(),
                summary_engine: digest.summary_engines.get(&c).cloned(),
                shown,
                folded,
            }
        })
        .collect()
}

/// One bar of a chart, in SVG user units.
#[derive(Debug, Serialize)]
pub struct Bar {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// CSS class (category slug or run status).
    pub class: String,
    /// Text label.
    pub label: String,
    /// The value shown beside the bar.
    pub value: String,
    /// Tooltip.
    pub title: String,
}

/// Chart geometry.
pub const CHART_W: f64 = 600.0;
/// Height of the run-history chart.
pub const HISTORY_H: f64 = 160.0;

/// Horizontal bars, one per category.
pub fn breakdown_chart(report: &MetricsReport) -> Vec<Bar> {
    let max = report
        .category_breakdown
        .values()
        .copied()
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let label_w = 120.0;
    report
        .category_breakdown
        .iter()
        .enumerate()
        .map(|(i, (c, n))| Bar {
            x: label_w,
            y: i as f64 * 28.0 + 4.0,
            w: ((CHART_W - label_w - 60.0) * (*n as f64) / max).max(1.0),
            h: 20.0,
            class: c.as_str().to_ascii_lowercase(),
            label: format!("{c}"),
            value: n.to_string(),
            title: format!("{c}: {n}"),
        })
        .collect()
}

/// Vertical bars, one per run (oldest left), height = execution time.
pub fn history_chart(runs: &[RunSummary]) -> Vec<Bar> {
    let max = runs
        .iter()
        .filter_map(|r| r.execution_time)
        .fold(0.0f64, f64::max)
        .max(0.001);
    // At most 60 units per run, so a handful of runs do not turn into slabs.
    let slot = (CHART_W / runs.len().max(1) as f64).min(60.0);
    let plot_h = HISTORY_H - 20.0;
    runs.iter()
        .enumerate()
        .map(|(i, r)| {
            let t = r.execution_time.unwrap_or(0.0);
            let h = (plot_h * t / max).max(2.0);
            Bar {
                x: i as f64 * slot + slot * 0.15,
                y: plot_h - h,
                w: slot * 0.7,
                h,
                class: r.status.clone(),
                label: r.started_at.clone(),
                value: format!("{t:.1}s"),
                title: format!(
                    "{} · {} · {t:.2} s · {} emails",
                    r.started_at, r.status, r.emails_processed
                ),
            }
        })
        .collect()
}

/// What the page header shows of the digest (its emails are in the pre-rendered sections).
#[derive(Serialize)]
struct DigestHead<'a> {
    generated_at: &'a str,
    stats: &'a domain::email::DigestStats,
    engine: &'a Option<String>,
}

/// Everything the digest page shows.
pub struct IndexPage<'a> {
    /// The digest (empty before the first refresh).
    pub digest: &'a Digest,
    /// [`Templates::render_sections`] of `digest`.
    pub sections_html: &'a str,
    /// Set when the digest file could not be read.
    pub digest_error: Option<String>,
    /// Refresh status.
    pub status: &'a ScriptStatus,
    /// Metrics of the chosen period.
    pub metrics: &'a MetricsReport,
    /// Runs of the period, oldest first.
    pub runs: &'a [RunSummary],
    /// Recent errors.
    pub errors: &'a [ErrorRecord],
    /// The refresh time-out in seconds.
    pub timeout_secs: u64,
    /// `(css class, text)` after a refresh started from the form (no JavaScript).
    pub notice: Option<(&'static str, &'static str)>,
    /// Unsubscribing and waiting for replies.
    pub acting: &'a ActingPanel,
}

impl IndexPage<'_> {
    /// The template context.
    pub fn context(&self) -> Context {
        let mut ctx = Context::new();
        let total: usize = self.digest.categories.values().map(Vec::len).sum();
        ctx.insert("page", "digest");
        ctx.insert(
            "digest",
            &DigestHead {
                generated_at: &self.digest.generated_at,
                stats: &self.digest.stats,
                engine: &self.digest.engine,
            },
        );
        ctx.insert(
            "never_refreshed",
            &(self.digest.generated_at == crate::store::digest_file::NEVER),
        );
        ctx.insert("digest_error", &self.digest_error);
        ctx.insert("total", &total);
        ctx.insert("status", self.status);
        ctx.insert("metrics", self.metrics);
        ctx.insert("periods", &["24h", "7d", "all"]);
        ctx.insert("breakdown", &breakdown_chart(self.metrics));
        ctx.insert("history", &history_chart(self.runs));
        let slowest = self
            .runs
            .iter()
            .filter_map(|r| r.execution_time)
            .fold(0.0f64, f64::max);
        ctx.insert("history_max", &format!("{slowest:.1}"));
        ctx.insert("chart_w", &CHART_W);
        ctx.insert("history_h", &HISTORY_H);
        ctx.insert("errors", self.errors);
        ctx.insert("timeout_secs", &self.timeout_secs);
        ctx.insert("notice", &self.notice);
        ctx.insert("acting", self.acting);
        ctx
    }
}

/// One suite card of the /tests page.
#[derive(Debug, Serialize)]
pub struct SuiteCard {
    /// API name.
    pub name: &'static str,
    /// Purpose.
    pub purpose: &'static str,
    /// Approximate seconds.
    pub approx_secs: u32,
    /// The checks it runs.
    pub checks: Vec<&'static str>,
}

/// The /tests page context.
/// `busy`: a form run was just refused because another one was running.
pub fn tests_context(latest: Option<&StoredTestRun>, running: bool, busy: bool) -> Context {
    let mut ctx = Context::new();
    let suites: Vec<SuiteCard> = Suite::all()
        .map(|s| SuiteCard {
            name: s.as_str(),
            purpose: s.purpose(),
            approx_secs: s.approx_secs(),
            checks: s.checks(),
        })
        .collect();
    ctx.insert("page", "tests");
    ctx.insert("suites", &suites);
    ctx.insert("latest", &latest);
    ctx.insert("running", &running);
    ctx.insert("busy", &busy);
    ctx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::queries::Metrics;
    use crate::store::test_runs::{Counts, Failure};
    use crate::store::window::Window;
    use domain::email::EmailItem;

    fn item(subject: &str) -> EmailItem {
        EmailItem {
            id: "id1".into(),
            subject: subject.into(),
            from: "a@example.com".into(),
            date: "2026-11-21".into(),
            snippet: "<b>bold</b>".into(),
            reasons: Vec::new(),
        }
    }

    fn report() -> MetricsReport {
        MetricsReport {
            period: Window::Day.as_str(),
            metrics: Metrics {
                emails_processed: 1,
                api_calls: 2,
                cache_hit_rate: 50.0,
                avg_execution_time: 1.5,
                success_rate: 100.0,
                estimated_cost: 0.0,
                script_run_count: 1,
                error_count: 0,
            },
            category_breakdown: Category::ALL.into_iter().map(|c| (c, 3)).collect(),
            corrections: crate::store::corrections::CorrectionStats {
                total: 0,
                per_category: Category::ALL.into_iter().map(|c| (c, 0)).collect(),
                rate: 0.0,
            },
        }
    }

    /// Loads and renders every template with representative data, so a template error is a
    /// test failure, not a 500 in production.
    #[test]
    fn every_template_renders_and_escapes_email_content() {
        let templates = Templates::load().unwrap();
        let mut digest = Digest::empty("2026-11-21T10:00:00");
        let need = digest.categories.entry(Category::NeedAction).or_default();
        for _ in 0..7 {
            need.push(item("<script>alert(1)</script>"));
        }
        need.push(EmailItem {
            id: "x\" onmouseover=\"alert(3)".into(),
            reasons: vec!["<b>why</b>".into()],
            ..item("reasons")
        });
        digest
            .summaries
            .insert(Category::NeedAction, "<i>sum</i>".into());
        digest.engine = Some("llm:<b>model</b>".into());
        digest
            .summary_engines
            .insert(Category::NeedAction, "llm:<b>model</b>".into());
        let status = ScriptStatus {
            running: false,
            last_run: None,
            lock_file_exists: false,
        };
        let runs = vec![RunSummary {
            started_at: "2026-11-21T10:00:00".into(),
            status: "success".into(),
            execution_time: Some(1.5),
            emails_processed: 7,
        }];
        let errors = vec![ErrorRecord {
            timestamp: "2026-11-21T10:00:00".into(),
            module: "imap".into(),
            error_type: "Login".into(),
            message: "<img src=x onerror=alert(2)>".into(),
            traceback: None,
        }];
        let metrics = report();
        let sections_html = templates.render_sections(&digest).unwrap();
        let acting = ActingPanel::default();
        let page = IndexPage {
            acting: &acting,
            digest: &digest,
            sections_html: &sections_html,
            digest_error: None,
            status: &status,
            metrics: &metrics,
            runs: &runs,
            errors: &errors,
            timeout_secs: 120,
            notice: Some(("fail", "<b>n</b>")),
        };
        let html = templates.render_index(&page).unwrap();
        assert!(!html.contains(SECTIONS_MARKER));
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;"),
            "subject not escaped"
        );
        assert!(!html.contains("<script>alert(1)"));
        assert!(!html.contains("<img src=x"));
        // Ids, reasons and the category control are escaped too.
        assert!(!html.contains("\" onmouseover"));
        assert!(
            html.contains("&lt;b&gt;why&lt;&#x2F;b&gt;"),
            "reason not shown"
        );
        assert!(!html.contains("<b>why"));
        assert!(html.contains(r#"<option value="Need-Action" selected>"#));
        assert!(!html.contains("<i>sum</i>"));
        assert!(!html.contains("<b>model"));
        assert!(
            html.contains(r#"<span id="engine">llm:&lt;b&gt;model"#),
            "engine not shown"
        );
        assert!(html.contains(r#"class="summary-engine">llm:&lt;b&gt;model"#));
        assert!(html.contains("<details"), "long list is not collapsible");
        assert!(html.contains("<svg"), "no chart");

        let latest = StoredTestRun {
            last_run: "2026-11-21T10:00:00".into(),
            suite: "basic".into(),
            results: Counts {
                passed: 1,
                failed: 1,
                skipped: 0,
                total: 2,
                duration: 0.1,
            },
            failures: vec![Failure {
                test: "digest_readable_and_valid".into(),
                message: "<b>x</b>".into(),
            }],
        };
        for latest in [None, Some(&latest)] {
            let html = templates
                .render("tests.html", &tests_context(latest, false, true))
                .unwrap();
            assert!(html.contains("comprehensive"));
            assert!(!html.contains("<b>x</b>"));
        }
        for (name, _) in TEMPLATES {
            assert!(templates.tera.get_template_names().any(|n| n == *name));
        }
    }
}
