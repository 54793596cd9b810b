//! Splitting a label ingredient list (filled in below).
