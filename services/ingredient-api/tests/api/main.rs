mod analyze;
mod cors;
mod errors;
mod health;
mod helpers;
mod observability;
