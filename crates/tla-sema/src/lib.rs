//! tla-sema
