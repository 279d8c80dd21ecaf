//! Searches.
