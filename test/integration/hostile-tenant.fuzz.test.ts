/**
 * A hostile tenant against the whole API: fast-check walks every operation of the served OpenAPI
 * document as workspace A (its API key or its signed-in owner), aiming at workspace B's real
 * resources (a processed video with clips, a project, an upload, a caption template) and throwing
 * hostile values everywhere: B's ids, huge, negative and non-finite numbers, unicode, control
 * characters, wrong types, duplicated and missing fields. Per request: no 5xx, nothing of B's in the
 * answer, and every error in the one body. At the end B is exactly as it was, and each balance
 * still equals its ledger.
 *
 * A fixed seed in `make test`; `npm run fuzz:long` runs it long with a fresh seed (FUZZ_RUNS,
 * FUZZ_SEED). Rate limits are lifted for A (the fuzz probes authorisation and validation, and the
 * limits have their own tests), so every run reaches a handler.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker/index";
import { CAPTION_PRESET_IDS } from "@clipforge/contract";
import { ERROR_CODES } from "../../src/worker/errors";
import { balanceOf, createUser, ledgerSum, type TestUser } from "../helpers/accounts";
import { BASE, call, signIn, submitBodyAndProcess } from "../helpers/api";
import { fakeVideoFile, useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const RUNS = Number(env.FUZZ_RUNS || 400);
const SEED = Number(env.FUZZ_SEED || 20261126);

interface Operation {
	method: string;
	path: string;
	query: string[];
	hasBody: boolean;
	bodyFields: string[];
}

/** Every operation of the served document, with its query parameters and top-level body fields. */
async function operations(): Promise<Operation[]> {
	const document = (await call("GET", "/api/openapi.json")).body;
	const list: Operation[] = [];
	for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
		for (const [method, operation] of Object.entries<any>(item)) {
			if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
			const query = (operation.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => p.name);
			const schema = operation.requestBody?.content?.["application/json"]?.schema;
			list.push({
				method: method.toUpperCase(),
				path,
				query,
				hasBody: Boolean(operation.requestBody),
				bodyFields: fieldsOf(document, schema),
			});
		}
	}
	return list;
}

function fieldsOf(document: any, schema: any): string[] {
	if (!schema) return [];
	if (schema.$ref) return fieldsOf(document, document.components.schemas[schema.$ref.split("/").pop()]);
	const variants = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
	const own = Object.keys(schema.properties ?? {});
	return [...new Set([...own, ...variants.flatMap((v: any) => fieldsOf(document, v))])];
}

/** The victim: a workspace with a processed video, its clips, a project, an upload and a template. */
async function victim() {
	const marker = `victim${crypto.randomUUID().replaceAll("-", "")}`;
	const user = await createUser({ minutes: 120 });
	const workspaceId = user.workspaceIds[0]!;
	const key = (await env.DB.prepare("SELECT id FROM api_keys WHERE workspace_id = ?")
		.bind(workspaceId)
		.first("id")) as string;
	const apiKey = await mintKey(user, workspaceId);
	const hostedUrl = fake().addSource(`https://videos.example.com/${marker}.mp4`, {
		duration: 60,
		title: `${marker} title`,
	});
	const project = await call("POST", "/api/projects", { key: apiKey, body: { name: `${marker} project` } });
	const videoId = await submitBodyAndProcess(apiKey, { hostedUrl, projectId: project.body.id, config: {} });
	const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as { id: string }[];
	const file = fakeVideoFile({ duration: 60 }, 2000);
	const upload = await call("POST", "/api/uploads", {
		key: apiKey,
		body: { fileName: `${marker}.mp4`, size: file.length, contentType: "video/mp4" },
	});
	const template = await call("POST", "/api/caption-templates", {
		key: apiKey,
		body: { name: `${marker} look`, presetId: CAPTION_PRESET_IDS[0] },
	});
	return {
		marker,
		workspaceId,
		apiKey,
		ids: {
			video: videoId,
			clip: clips[0]?.id ?? "clp_none",
			upload: upload.body.id as string,
			key,
			project: project.body.id as string,
			template: (template.body.id as string | undefined) ?? "ct_none",
			workspace: workspaceId,
		},
	};
}

async function mintKey(user: TestUser, workspaceId: string): Promise<string> {
	const cookie = await signIn(user.email, user.password);
	const created = await call("POST", "/api/api-keys", { headers: { cookie }, body: { workspaceId, name: "k" } });
	return created.body.key as string;
}

/** What B's rows say, to compare before and after. */
async function snapshot(workspaceId: string) {
	const rows = (sql: string) =>
		env.DB.prepare(sql)
			.bind(workspaceId)
			.all()
			.then((r) => r.results);
	return {
		balance: await balanceOf(workspaceId),
		ledger: await rows("SELECT kind, minutes FROM minutes_ledger WHERE workspace_id = ? ORDER BY id"),
		videos: await rows("SELECT id, status, title, project_id FROM videos WHERE workspace_id = ? ORDER BY id"),
		clips: await rows(
			"SELECT c.id, c.status, c.start_time, c.end_time, c.title FROM clips c JOIN videos v ON v.id = c.video_id WHERE v.workspace_id = ? ORDER BY c.id",
		),
		keys: await rows("SELECT id, revoked_at FROM api_keys WHERE workspace_id = ? ORDER BY id"),
		projects: await rows("SELECT id, name FROM projects WHERE workspace_id = ? ORDER BY id"),
		uploads: await rows("SELECT id, status FROM uploads WHERE workspace_id = ? ORDER BY id"),
		workspace: await rows("SELECT webhook_url, watermark_text FROM workspaces WHERE id = ?"),
	};
}

const hostileString = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.string({ unit: "grapheme", maxLength: 20 }),
	fc.constantFrom(
		"",
		" ",
		"\u0000",
		"\r\n-->\n00:00:00,000 --> 99:00:00,000",
		"../../etc/passwd",
		"%2e%2e%2f",
		"'; DROP TABLE videos; --",
		"<script>alert(1)</script>",
		"x".repeat(5000),
		"🎬".repeat(300),
		"__proto__",
		"constructor",
	),
);
const hostileNumber = fc.oneof(
	fc.double(),
	fc.integer(),
	fc.constantFrom(-1, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 1e-300, 0.5),
);
/** A value for a field: of the wrong type as often as not. */
const hostileValue = (victimIds: string[]) =>
	fc.oneof(
		{ weight: 3, arbitrary: fc.constantFrom(...victimIds) },
		{ weight: 3, arbitrary: hostileString },
		{ weight: 2, arbitrary: hostileNumber },
		{ weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 2], { $gt: "" }) },
		{ weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
	);

function pathFor(template: string, ids: Record<string, string>, pick: (kind: string) => string): string {
	return template.replace(/\{(\w+)\}/g, (_, name: string) => {
		if (name === "workspaceId") return encodeURIComponent(pick("workspace"));
		if (name === "partNumber") return encodeURIComponent(pick("part"));
		const kind = /\/api\/(videos|clips|uploads|api-keys|backgrounds|caption-templates)\//.exec(template)?.[1];
		const byKind: Record<string, string> = {
			videos: "video",
			clips: "clip",
			uploads: "upload",
			"api-keys": "key",
			backgrounds: "background",
			"caption-templates": "template",
		};
		return encodeURIComponent(pick(byKind[kind ?? ""] ?? "video"));
	});
}

/** A's request, straight into the Worker with A's rate limits lifted. */
async function asAttacker(request: Request): Promise<Response> {
	const unlimited = { limit: async () => ({ success: true }) };
	const ctx = createExecutionContext();
	const response = await worker.fetch(
		request,
		{
			...env,
			READ_LIMITER: unlimited,
			WRITE_LIMITER: unlimited,
			PROBE_LIMITER: unlimited,
			PART_LIMITER: unlimited,
		},
		ctx,
	);
	await waitOnExecutionContext(ctx);
	return response;
}

describe("a hostile tenant against every route of the OpenAPI document", () => {
	it(
		`no 5xx, nothing of the other tenant's read or changed, balances by the rules, one error body (${RUNS} requests, seed ${SEED})`,
		{
			timeout: 600_000,
		},
		async () => {
			const b = await victim();
			const attacker = await createUser({ minutes: 30 });
			const aWorkspace = attacker.workspaceIds[0]!;
			const aKey = await mintKey(attacker, aWorkspace);
			const aCookie = await signIn(attacker.email, attacker.password);
			const ops = await operations();
			expect(ops.length).toBeGreaterThan(40);
			const before = await snapshot(b.workspaceId);
			const victimIds = Object.values(b.ids);
			const seen = new Map<string, number>();

			const request = fc.record({
				op: fc.constantFrom(...ops),
				asSession: fc.boolean(),
				ids: fc.record({
					video: fc.oneof(fc.constant(b.ids.video), hostileString),
					clip: fc.oneof(fc.constant(b.ids.clip), hostileString),
					upload: fc.oneof(fc.constant(b.ids.upload), hostileString),
					key: fc.oneof(fc.constant(b.ids.key), hostileString),
					background: fc.oneof(fc.constant("bg_none"), hostileString),
					template: fc.oneof(fc.constant(b.ids.template), hostileString),
					workspace: fc.oneof(fc.constant(b.workspaceId), hostileString),
					part: fc.oneof(fc.constantFrom("1", "0", "-1", "1e9", "NaN"), hostileString),
				}),
				query: fc.dictionary(fc.string({ maxLength: 3 }), hostileValue(victimIds), { maxKeys: 2 }),
				queryValues: fc.array(hostileValue(victimIds), { minLength: 4, maxLength: 4 }),
				body: fc.oneof(
					{ weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
					{ weight: 4, arbitrary: fc.array(hostileValue(victimIds), { minLength: 12, maxLength: 12 }) },
				),
				duplicate: fc.boolean(),
			});

			await fc.assert(
				fc.asyncProperty(request, async (r) => {
					const path = pathFor(r.op.path, b.ids, (kind) => (r.ids as Record<string, string>)[kind] ?? "x");
					const url = new URL(`${BASE}${path}`);
					r.op.query.forEach((name, i) => {
						const value = r.queryValues[i % r.queryValues.length];
						if (value !== undefined)
							url.searchParams.append(
								name,
								String(typeof value === "object" ? JSON.stringify(value) : value),
							);
					});
					for (const [name, value] of Object.entries(r.query)) url.searchParams.append(name, String(value));
					let body: string | undefined;
					if (r.op.hasBody) {
						const fields = r.op.bodyFields;
						const values = r.body;
						const value =
							Array.isArray(values) && fields.length
								? Object.fromEntries(fields.map((f, i) => [f, values[i % values.length]]))
								: values;
						body = JSON.stringify(value) ?? "null";
						// A duplicated field: JSON.parse keeps the last, and nothing may trip over it.
						if (r.duplicate && body.startsWith("{") && fields[0])
							body = `{${JSON.stringify(fields[0])}:${JSON.stringify(b.ids.video)},${body.slice(1)}`;
					}
					const headers: Record<string, string> = r.asSession
						? { cookie: aCookie, origin: BASE, "sec-fetch-site": "same-origin" }
						: { authorization: `Bearer ${aKey}` };
					if (body !== undefined)
						headers["content-type"] = r.op.path.includes("/parts/")
							? "application/octet-stream"
							: "application/json";
					const response = await asAttacker(new Request(url, { method: r.op.method, headers, body }));
					const text = new TextDecoder().decode(await response.arrayBuffer());
					const label = `${r.op.method} ${url.pathname}${url.search.slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
					seen.set(`${r.op.method} ${r.op.path}`, (seen.get(`${r.op.method} ${r.op.path}`) ?? 0) + 1);
					expect(response.status, label).toBeLessThan(500);
					expect(text.includes(b.marker), `B's data in the answer: ${label}`).toBe(false);
					if (response.status >= 400) {
						const error = JSON.parse(text).error;
						expect(Object.keys(JSON.parse(text)), label).toEqual(["error"]);
						expect(ERROR_CODES, label).toContain(error.code);
						expect(typeof error.message, label).toBe("string");
						expect(typeof error.requestId, label).toBe("string");
					}
				}),
				{ numRuns: RUNS, seed: SEED, endOnFailure: true },
			);

			// B is exactly as it was; each balance still equals its ledger.
			expect(await snapshot(b.workspaceId)).toEqual(before);
			expect(await balanceOf(aWorkspace)).toBe(await ledgerSum(aWorkspace));
			expect(await balanceOf(aWorkspace)).toBeGreaterThanOrEqual(0);
			// Most operations were tried (the rest by chance another run).
			expect(seen.size).toBeGreaterThan(ops.length * 0.6);
		},
	);
});
