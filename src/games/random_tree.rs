//! Synthetic uniform trees (placeholder, being written).
