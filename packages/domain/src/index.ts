/** @clipforge/domain: the API's vocabulary as plain data (no zod, no I/O), below the Worker and the SDK. */
export * from "./config-options.ts";
export * from "./statuses.ts";
export * from "./clip-lists.ts";
export * from "./config-option.ts";
export * from "./time-frame.ts";
export * from "./ranking-features.ts";
export * from "./chapters.ts";
export * from "./languages.ts";
