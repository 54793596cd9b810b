mod basics;
mod helpers;
