-- Schema 4 -> 5 (acting on mail): what each message read says about unsubscribing and its
-- thread, for inbox and sent mail alike, and the unsubscribes made on the dashboard.
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
