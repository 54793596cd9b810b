-- Schema 2 -> 3 (corrections from the dashboard): which email ops staff moved to which
-- category, who and when. The refresh job applies the newest active correction of a sender as
-- the strongest evidence and learns from the corrected messages. Existing rows are kept.
CREATE TABLE IF NOT EXISTS corrections (
    id            INTEGER PRIMARY KEY,
    -- the digest item's id (Message-ID, else the source's key)
    email_id      TEXT NOT NULL,
    -- the sender address, lower-cased: what later refreshes match
    sender        TEXT NOT NULL,
    -- subject and snippet of the corrected email: the example the model learns from
    subject       TEXT NOT NULL DEFAULT '',
    snippet       TEXT NOT NULL DEFAULT '',
    -- the category it had, and the one it was moved to
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
