//! Turning results into bytes: the render loop, and text for people.

pub(crate) mod drive;
pub(crate) mod human;
pub(crate) mod pending;
