/** The targets of issue 19, on both engines. */

/** Every read: facade req/s at least this share of the hand-written baseline's. */
export const READ_TARGET = 0.85;
/** GET provider, the lightest read: what the facade adds shows most there. */
export const PROVIDER_TARGET = 0.9;
/** POST 2500 dates: facade time at most this multiple of the same inserts by hand. */
export const DATES_TIME_RATIO_TARGET = 1.5;
/** A read through its subgraph service: at least this share of its in-process req/s (issue 41). */
export const HOP_RATIO_TARGET = 0.7;
/** ...and at most this many ms added to its median latency. */
export const HOP_P50_ADDED_MS_TARGET = 2;
