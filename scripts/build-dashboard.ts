/**
 * `npm run build:dashboard`: the dashboard's TypeScript (src/dashboard) bundled with esbuild into
 * the Worker's static assets, dist/dashboard/app/app.js and app.css (served at /app/app.js and
 * /app/app.css; wrangler.toml `[assets]`). wrangler runs it before `dev` and `deploy` (`[build]`),
 * the Worker tests run it first.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const out = join(ROOT, "dist/dashboard/app");
mkdirSync(out, { recursive: true });
await build({
	entryPoints: [join(ROOT, "src/dashboard/main.ts")],
	outfile: join(out, "app.js"),
	bundle: true,
	format: "esm",
	target: "es2022",
	sourcemap: "linked",
	legalComments: "none",
	logLevel: "warning",
});
copyFileSync(join(ROOT, "src/dashboard/app.css"), join(out, "app.css"));
