//! Turning results into bytes: the render loop, and text for people.

mod batched;
mod cap;
pub(crate) mod drive;
pub(crate) mod output_id;
mod overflow;
