-- The run store: one SQLite file, <data-dir>/runs.sqlite3, in WAL mode.
-- Written by the digest-refresh job (runs, errors, message and summary caches) and by
-- digest-web (test runs, and runs it had to kill). Read by /api/metrics, /api/errors,
-- /api/tests/results and the dashboard. Times are ISO 8601 UTC without zone
-- ("2026-11-21T20:30:00"), so text order is time order.

CREATE TABLE IF NOT EXISTS runs (
    id               INTEGER PRIMARY KEY,
    started_at       TEXT    NOT NULL,
    finished_at      TEXT,
    -- running | success | error | timeout | killed
    status           TEXT    NOT NULL,
    exit_code        INTEGER,
    emails_processed INTEGER NOT NULL DEFAULT 0,
    -- calls to external services: IMAP fetch commands and LLM HTTP requests
    api_calls        INTEGER NOT NULL DEFAULT 0,
    -- messages whose category came from message_cache / messages looked up there
    cache_hits       INTEGER NOT NULL DEFAULT 0,
    cache_lookups    INTEGER NOT NULL DEFAULT 0,
    llm_tokens       INTEGER NOT NULL DEFAULT 0,
    -- LLM tokens x the configured prices
    estimated_cost   REAL    NOT NULL DEFAULT 0,
    -- seconds
    execution_time   REAL,
    -- JSON object: category name -> count of emails in this run's digest
    category_counts  TEXT    NOT NULL DEFAULT '{}',
    -- the one human line printed on failure
    message          TEXT,
    -- (schema 2) LLM answers taken from category_cache/summary_cache / answers looked up there
    llm_cache_hits    INTEGER NOT NULL DEFAULT 0,
    llm_cache_lookups INTEGER NOT NULL DEFAULT 0,
    -- (schema 2) offline | llm:<model>: the digest's engine
    engine            TEXT    NOT NULL DEFAULT 'offline'
);
CREATE INDEX IF NOT EXISTS runs_started_at ON runs (started_at);

CREATE TABLE IF NOT EXISTS errors (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER REFERENCES runs (id),
    timestamp  TEXT NOT NULL,
    module     TEXT NOT NULL,
    error_type TEXT NOT NULL,
    message    TEXT NOT NULL,
    traceback  TEXT
);
CREATE INDEX IF NOT EXISTS errors_timestamp ON errors (timestamp);

-- Messages already processed: never fetched or parsed again.
CREATE TABLE IF NOT EXISTS message_cache (
    -- the mailbox identity (maildir path, mbox path, imap URL without password)
    source     TEXT NOT NULL,
    -- IMAP "<uidvalidity>:<uid>", Maildir base name (before ':2,'), mbox message offset hash
    key        TEXT NOT NULL,
    -- EmailItem as JSON
    item       TEXT NOT NULL,
    category   TEXT NOT NULL,
    confidence REAL NOT NULL,
    -- when the message was sent/delivered (for the window), ISO 8601 UTC
    received_at TEXT NOT NULL,
    -- offline | llm:<model>
    engine     TEXT NOT NULL,
    PRIMARY KEY (source, key)
);

-- LLM summaries of a category: a warm refresh asks nothing again.
-- (schema 4) The classifier's features of each message_cache row (same source and key), so
-- what is learnt from a corrected message never needs it parsed again.
CREATE TABLE IF NOT EXISTS message_features (
    source   TEXT NOT NULL,
    key      TEXT NOT NULL,
    -- little-endian (u32 index, f32 value) pairs
    features BLOB NOT NULL,
    PRIMARY KEY (source, key)
);

CREATE TABLE IF NOT EXISTS summary_cache (
    -- SHA-256 (hex) of the prompt version, the model, the category and what the prompt shows
    -- of each of its messages
    key        TEXT PRIMARY KEY,
    summary    TEXT NOT NULL,
    engine     TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- (schema 2) LLM categories of low-confidence messages, so each is asked once per model.
CREATE TABLE IF NOT EXISTS category_cache (
    -- SHA-256 (hex) of the prompt version, the model and the fields sent (from, subject,
    -- snippet)
    key        TEXT PRIMARY KEY,
    category   TEXT NOT NULL,
    -- llm:<model>
    engine     TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS test_runs (
    id         INTEGER PRIMARY KEY,
    suite      TEXT    NOT NULL,
    started_at TEXT    NOT NULL,
    passed     INTEGER NOT NULL,
    failed     INTEGER NOT NULL,
    skipped    INTEGER NOT NULL,
    total      INTEGER NOT NULL,
    -- seconds
    duration   REAL    NOT NULL,
    -- JSON array of {"test": ..., "message": ...}
    failures   TEXT    NOT NULL DEFAULT '[]'
);

-- (schema 3) Corrections ops staff make on the dashboard: an email moved to another category.
-- The refresh job applies a sender's newest active correction as the strongest evidence.
CREATE TABLE IF NOT EXISTS corrections (
    id            INTEGER PRIMARY KEY,
    -- the digest item's id (Message-ID, else the source's key)
    email_id      TEXT NOT NULL,
    -- the sender address, lower-cased: what later refreshes match
    sender        TEXT NOT NULL,
    -- subject and snippet of the corrected email: the example the model learns from
    subject       TEXT NOT NULL DEFAULT '',
    snippet       TEXT NOT NULL DEFAULT '',
    from_category TEXT NOT NULL,
    category      TEXT NOT NULL,
    -- the signed-in user, or "anonymous" when protection is off
    created_by    TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    -- set when undone: an undone correction no longer applies
    undone_by     TEXT,
    undone_at     TEXT
);
CREATE INDEX IF NOT EXISTS corrections_created_at ON corrections (created_at);
CREATE INDEX IF NOT EXISTS corrections_sender ON corrections (sender);

-- (schema 5) Acting on mail: what each message read says about unsubscribing and its thread
-- (inbox and sent mail), and the unsubscribes made on the dashboard.
CREATE TABLE IF NOT EXISTS mail_facts (
    source        TEXT NOT NULL,
    key           TEXT NOT NULL,
    -- 'inbox' (the digest's source) or 'sent' (the owner's sent mail)
    folder        TEXT NOT NULL,
    -- the digest item's id: the Message-ID without angle brackets, else a hash
    message_id    TEXT NOT NULL,
    -- lower-cased sender address
    sender        TEXT NOT NULL,
    -- To and Cc addresses, lower-cased, space separated
    recipients    TEXT NOT NULL DEFAULT '',
    subject       TEXT NOT NULL DEFAULT '',
    -- ISO 8601 UTC: when it was sent (Date header), else delivered
    sent_at       TEXT NOT NULL,
    -- message ids without angle brackets, space separated
    in_reply_to   TEXT NOT NULL DEFAULT '',
    refs          TEXT NOT NULL DEFAULT '',
    -- as written, unfolded (NULL when absent)
    list_unsubscribe      TEXT,
    list_unsubscribe_post TEXT,
    PRIMARY KEY (source, key)
);
CREATE INDEX IF NOT EXISTS mail_facts_message_id ON mail_facts (message_id);
CREATE INDEX IF NOT EXISTS mail_facts_folder_sent_at ON mail_facts (folder, sent_at);

-- One row per unsubscribe attempted from the dashboard.
CREATE TABLE IF NOT EXISTS unsubscribes (
    id            INTEGER PRIMARY KEY,
    -- lower-cased sender address
    sender        TEXT NOT NULL,
    -- 'one-click' (RFC 8058 POST) or 'mailto'
    method        TEXT NOT NULL,
    -- the https URI or the mailto address it went to
    target        TEXT NOT NULL,
    created_by    TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    -- 'done' (the target accepted it) or 'failed'
    outcome       TEXT NOT NULL,
    -- the HTTP status or SMTP reply code, when one came
    answer_status INTEGER,
    -- what happened, in one line
    answer        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS unsubscribes_sender ON unsubscribes (sender);
