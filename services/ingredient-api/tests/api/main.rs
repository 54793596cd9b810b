mod analyze;
mod cors;
mod errors;
mod health;
mod helpers;
mod labels;
mod observability;
mod ocr;
