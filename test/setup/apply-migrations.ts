import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Storage persists within a test file (vitest-plugin ≥ 0.13): applying is idempotent, and every
// test uses fresh ids instead of relying on a rollback.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
