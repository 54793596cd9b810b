-- Schema 1 -> 2 (the LLM step of the refresh job): LLM cache figures and the
-- engine per run, and the cache of LLM categories. Existing rows are kept.
ALTER TABLE runs ADD COLUMN llm_cache_hits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN llm_cache_lookups INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN engine TEXT NOT NULL DEFAULT 'offline';

CREATE TABLE IF NOT EXISTS category_cache (
    key        TEXT PRIMARY KEY,
    category   TEXT NOT NULL,
    engine     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
