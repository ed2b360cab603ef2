/** @clipforge/contract: everything the Worker and the render tier must agree on, in one package. */
export * from "./address-policy.ts";
export * from "./job-protocol.ts";
export * from "./jobs.ts";
export * from "./instance-types.ts";
export * from "./layouts.ts";
export * from "./object-upload.ts";
export * from "./request-auth.ts";
export * from "./retime.ts";
export * from "./time-budgets.ts";
export * from "./vocabulary.ts";
