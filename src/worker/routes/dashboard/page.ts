/**
 * `/app`: the web dashboard's page. Its script and stylesheet (/app/app.js, /app/app.css) are
 * static assets built from src/dashboard (scripts/build-dashboard.ts); the page talks to the same
 * JSON API with the session cookie (POST /api/auth/login), so everything it shows is what the API
 * answers. Strict CSP: scripts only from this origin.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../../env";

const CSP = [
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data:",
	"media-src 'self'",
	"connect-src 'self'",
	"frame-ancestors 'none'",
	"base-uri 'none'",
	"form-action 'self'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clipforge</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/app.css">
<script type="module" src="/app/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="#/videos">clipforge</a>
  <nav aria-label="Main" id="nav" hidden>
    <a href="#/videos">Videos</a>
    <a href="#/looks">Caption looks</a>
    <a href="#/keys">API keys</a>
    <label class="ws">Workspace <select id="workspace"></select></label>
    <span id="balance" aria-live="polite"></span>
    <button type="button" id="logout" class="link">Sign out</button>
  </nav>
</header>
<main id="main" tabindex="-1"><p>Loading…</p></main>
<div id="toast" role="status" aria-live="polite"></div>
</body>
</html>`;

export function registerDashboardPage(routes: Hono<AppEnv>) {
	routes.get("/app", (c) => {
		c.header("Content-Security-Policy", CSP);
		c.header("X-Content-Type-Options", "nosniff");
		c.header("Cache-Control", "no-store");
		return c.html(PAGE);
	});
}
