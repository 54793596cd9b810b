-- Schema 3 -> 4 (features cached with each message): the classifier's hashed feature vector of
-- a message, so what is learnt from a corrected message never needs it parsed again. A table
-- of its own, so the warm run's one scan of message_cache stays as small as before.
CREATE TABLE IF NOT EXISTS message_features (
    source   TEXT NOT NULL,
    key      TEXT NOT NULL,
    -- little-endian (u32 index, f32 value) pairs
    features BLOB NOT NULL,
    PRIMARY KEY (source, key)
);
