//! tla-eval
