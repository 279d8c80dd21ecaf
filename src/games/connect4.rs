//! Connect four (placeholder, being written).
