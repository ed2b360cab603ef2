import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes SQL migrations that `wrangler d1 migrations apply` runs.
export default defineConfig({
	dialect: "sqlite",
	schema: "./src/worker/db/schema.ts",
	out: "./migrations",
});
