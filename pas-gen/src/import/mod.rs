//! `pas-gen import`: specs drafted from the descriptions people already have.

pub mod openapi;
