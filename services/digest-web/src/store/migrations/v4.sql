-- Schema 3 -> 4 (features cached with each message): the classifier's hashed feature vector of
-- a message, so what is learnt from a corrected message never needs it parsed again.
-- Existing rows get NULL (their features are computed again only if ever needed).
ALTER TABLE message_cache ADD COLUMN features BLOB;
