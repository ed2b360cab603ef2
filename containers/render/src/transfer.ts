/**
 * Moved to runtime/transfer.ts. This old path stays only for the importers outside the tier
 * (test/e2e/object-parts.e2e.test.ts) until they import the new one; nothing in the tier imports
 * it.
 */
export { putFile } from "./runtime/transfer.ts";
