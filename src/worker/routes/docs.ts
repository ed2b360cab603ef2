/**
 * GET /docs: the OpenAPI document as one readable, self-contained HTML page (no scripts, no CDN,
 * so it works offline and under a strict CSP). Generated from the same zod schemas as the API.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";

type OpenAPIObject = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

const escape = (text: unknown) =>
	String(text ?? "").replace(
		/[&<>"']/g,
		(c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
	);

export function renderDocsPage(doc: OpenAPIObject): string {
	const sections = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
		(["get", "post", "put", "delete"] as const)
			.filter((method) => item?.[method])
			.map((method) => {
				const op = item[method]!;
				const params = (op.parameters ?? []) as {
					name: string;
					in: string;
					required?: boolean;
					schema?: unknown;
					description?: string;
				}[];
				const body = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)
					?.content?.["application/json"]?.schema;
				const responses = Object.entries(op.responses ?? {}) as [string, { description?: string }][];
				const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, "-");
				return `<section id="${id}" aria-labelledby="${id}-h">
<h2 id="${id}-h"><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h2>
<p>${escape(op.summary)}</p>
${params.length ? `<h3>Parameters</h3><ul>${params.map((p) => `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ", required" : ""}) <code>${escape(JSON.stringify(p.schema))}</code> ${escape(p.description)}</li>`).join("")}</ul>` : ""}
${body ? `<h3>Request body</h3><pre>${escape(JSON.stringify(body, null, 2))}</pre>` : ""}
<h3>Responses</h3><ul>${responses.map(([code, r]) => `<li><strong>${escape(code)}</strong> ${escape(r.description)}</li>`).join("")}</ul>
</section>`;
			}),
	);
	const schemas = Object.entries(doc.components?.schemas ?? {})
		.map(
			([name, schema]) =>
				`<details id="schema-${escape(name)}"><summary>${escape(name)}</summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>`,
		)
		.join("\n");
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)} · API reference</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f4f4f5;padding:.75rem;overflow:auto;border-radius:6px}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;text-align:center;border-radius:4px;color:#fff;font-size:.8em;padding:.1rem .4rem}
.get{background:#1d6fb8}.post{background:#217a3c}.put{background:#8a5a00}.delete{background:#b3261e}
</style></head><body>
<header><h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escape(doc.openapi)}). Errors always have the body <code>{"error": {"code", "message", "details"?, "requestId"}}</code>.</p></header>
<main>${sections.join("\n")}
<h2>Schemas</h2>${schemas}</main></body></html>`;
}
