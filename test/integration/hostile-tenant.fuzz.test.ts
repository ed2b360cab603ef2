/**
 * A hostile tenant against the whole API: fast-check walks every operation of the served OpenAPI
 * document as workspace A (its API key or its signed-in owner), aiming at workspace B's real
 * resources (a processed video with clips, a project, an upload, a caption template) and throwing
 * hostile values everywhere: B's ids, huge, negative and non-finite numbers, unicode, control
 * characters, wrong types, duplicated and missing fields. Per request: no 5xx, nothing of B's in the
 * answer, and every error in the one body. At the end B is exactly as it was, and each balance
 * still equals its ledger.
 *
 * Then the two doors the document does not list, with A holding a processed video of its own:
 * every tool of /mcp (tools/call with arguments drawn from each tool's input schema, and a broken
 * JSON-RPC envelope around them), and the signed-link routes (clip files, sources, caption
 * previews) with A's and B's real tokens moved, tampered, expired and forged. Each has a property
 * and a test of named refusals.
 *
 * A fixed seed in `make test` (400 REST requests, 200 MCP messages, 400 link requests);
 * `npm run fuzz:long` runs it long with a fresh seed (FUZZ_RUNS, FUZZ_SEED; MCP gets half the runs,
 * each message builds a server). Rate limits are lifted for A (the fuzz probes authorisation and
 * validation, and the limits have their own tests), so every run reaches a handler.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker/index";
import { CAPTION_PRESET_IDS } from "@clipforge/contract";
import { ERROR_CODES } from "../../src/worker/errors";
import { r2Keys } from "../../src/worker/services/r2-keys";
import { signCaptionPreviewUrl, signClipUrl, signSourceUrl } from "../../src/worker/services/signing";
import { balanceOf, createUser, createWorkspace, ledgerSum, type TestUser } from "../helpers/accounts";
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
		// A look of its own (not a preset's), so its preview is an image no preset shares.
		body: { name: `${marker} look`, presetId: CAPTION_PRESET_IDS[0], textColor: "#123456" },
	});
	return {
		marker,
		workspaceId,
		apiKey,
		clipIds: clips.map((c) => c.id),
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

/** What B's rows and files say, to compare before and after. */
async function snapshot(workspaceId: string) {
	const rows = (sql: string) =>
		env.DB.prepare(sql)
			.bind(workspaceId)
			.all()
			.then((r) => r.results);
	return {
		balance: await balanceOf(workspaceId),
		ledger: await rows("SELECT kind, minutes FROM minutes_ledger WHERE workspace_id = ? ORDER BY id"),
		// source_signed_at too: a link signed for B's source would cost B its refund.
		videos: await rows(
			"SELECT id, status, title, project_id, source_signed_at, source_purged_at FROM videos WHERE workspace_id = ? ORDER BY id",
		),
		clips: await rows(
			"SELECT c.id, c.status, c.start_time, c.end_time, c.title FROM clips c JOIN videos v ON v.id = c.video_id WHERE v.workspace_id = ? ORDER BY c.id",
		),
		keys: await rows("SELECT id, revoked_at FROM api_keys WHERE workspace_id = ? ORDER BY id"),
		projects: await rows("SELECT id, name FROM projects WHERE workspace_id = ? ORDER BY id"),
		uploads: await rows("SELECT id, status FROM uploads WHERE workspace_id = ? ORDER BY id"),
		workspace: await rows("SELECT webhook_url, watermark_text FROM workspaces WHERE id = ?"),
		files: await filesOf(workspaceId),
	};
}

/** Every stored object of the workspace's videos (sources, transcripts, clips), with its size and etag. */
async function filesOf(workspaceId: string) {
	const { results } = await env.DB.prepare("SELECT id FROM videos WHERE workspace_id = ? ORDER BY id")
		.bind(workspaceId)
		.all<{ id: string }>();
	const files: string[] = [];
	for (const { id } of results)
		for (const prefix of r2Keys.videoPrefixes(id)) {
			const listed = await env.MEDIA.list({ prefix });
			files.push(...listed.objects.map((o) => `${o.key} ${o.size} ${o.etag}`));
		}
	return files.sort();
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

// ---------------------------------------------------------------- /mcp and the signed links

/** A signed link as the API handed it out: the path it opens, its token, and whose object it is. */
interface Link {
	owner: "victim" | "attacker" | "shared";
	kind: "download" | "thumbnail" | "source" | "preview";
	path: string;
	token: string;
	/** The R2 key it was signed for (to sign expired and forged twins of it). */
	key: string;
	id: string;
}

/** The links a workspace is handed: its clips' files, its video's source, its caption looks' previews. */
async function linksOf(apiKey: string, videoId: string, owner: "victim" | "attacker"): Promise<Link[]> {
	const links: Link[] = [];
	const add = (
		url: string | null | undefined,
		kind: Link["kind"],
		id: string,
		key: string,
		who: Link["owner"] = owner,
	) => {
		if (!url) return;
		const parsed = new URL(url);
		links.push({ owner: who, kind, path: parsed.pathname, token: parsed.searchParams.get("token")!, key, id });
	};
	const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as {
		id: string;
		downloadUrl: string;
		thumbnailUrl: string;
	}[];
	for (const clip of clips) {
		const row = await env.DB.prepare("SELECT video_key, thumbnail_key FROM clips WHERE id = ?")
			.bind(clip.id)
			.first<{ video_key: string; thumbnail_key: string }>();
		add(clip.downloadUrl, "download", clip.id, row!.video_key);
		add(clip.thumbnailUrl, "thumbnail", clip.id, row!.thumbnail_key);
	}
	const source = await call("GET", `/api/videos/${videoId}/source-url`, { key: apiKey });
	const sourceKey = (await env.DB.prepare("SELECT source_key FROM videos WHERE id = ?")
		.bind(videoId)
		.first("source_key")) as string;
	add(source.body.url, "source", videoId, sourceKey);
	const looks = (await call("GET", "/api/caption-templates", { key: apiKey })).body.templates as {
		kind: "preset" | "custom";
		previewUrl: string | null;
	}[];
	for (const look of looks) {
		const hash = look.previewUrl ? new URL(look.previewUrl).pathname.split("/").pop()! : "";
		// The presets' previews are one image for every workspace; a template's own look is its workspace's.
		add(look.previewUrl, "preview", hash, r2Keys.captionPreview(hash), look.kind === "custom" ? owner : "shared");
	}
	return links;
}

/** The same link signed at `now` (an hour before: expired) or with another secret (forged). */
async function twinOf(link: Link, now: number, secret = env.SIGNING_SECRET): Promise<string> {
	const keyed = { SIGNING_SECRET: secret };
	const url =
		link.kind === "source"
			? (await signSourceUrl(keyed, BASE, link.id, link.key, now)).url
			: link.kind === "preview"
				? await signCaptionPreviewUrl(keyed, BASE, link.id, link.key, now)
				: await signClipUrl(keyed, BASE, link.id, link.kind, link.key, now);
	return new URL(url).searchParams.get("token")!;
}

/**
 * The world the tests below attack: B as in the walk above (its links signed for it first, so its
 * video counts a delivered source), and the attacker A with a processed video of its own and its
 * own links, since a hostile tenant holds real tokens and ids to misuse. Made once for the file by
 * the first test that needs it (storage outlives a test here; each test compares B with `before`).
 */
let shared: ReturnType<typeof makeWorld> | undefined;
const world = () => (shared ??= makeWorld());

async function makeWorld() {
	const b = await victim();
	const a = await createWorkspace({ minutes: 30 });
	const hostedUrl = fake().addSource(`https://videos.example.com/attacker-${crypto.randomUUID()}.mp4`, {
		duration: 60,
	});
	const aVideo = await submitBodyAndProcess(a.apiKey, { hostedUrl, config: {} });
	const links = [
		...(await linksOf(b.apiKey, b.ids.video, "victim")),
		...(await linksOf(a.apiKey, aVideo, "attacker")),
	];
	const aClips = links.filter((l) => l.owner === "attacker" && l.kind === "download").map((l) => l.id);
	expect(b.clipIds.length).toBeGreaterThan(0);
	expect(aClips.length).toBeGreaterThan(0);
	expect(b.ids.template).not.toBe("ct_none");
	expect(links.filter((l) => l.owner === "victim").map((l) => l.kind)).toEqual(
		expect.arrayContaining(["download", "thumbnail", "source", "preview"]),
	);
	// A's own video is past its source retention (its links were signed before): a reprocess or a
	// re-render of it is refused (410) instead of starting work that would outlive the test.
	await env.DB.prepare("UPDATE videos SET source_purged_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
		.bind(aVideo)
		.run();
	const victimIds = [...new Set([...Object.values(b.ids), ...b.clipIds])];
	return { b, a: { ...a, video: aVideo, clips: aClips }, links, victimIds, before: await snapshot(b.workspaceId) };
}

/** The attacker's answer as text; a stack frame or a source path in it is a leak whatever the status. */
async function read(response: Response): Promise<string> {
	return new TextDecoder().decode(await response.arrayBuffer());
}
const STACK_TRACE = /(^|\\n|\n)\s*at [^\n]*:\d+:\d+|\.[jt]s:\d+:\d+|node_modules\/|src\/worker\//;

/** The API's one error body: `{ error: { code, message, requestId, details? } }` and nothing else. */
function expectErrorBody(text: string, label: string, codes: readonly string[] = ERROR_CODES) {
	const parsed = JSON.parse(text);
	expect(Object.keys(parsed), label).toEqual(["error"]);
	expect(codes, label).toContain(parsed.error.code);
	expect(typeof parsed.error.message, label).toBe("string");
	expect(typeof parsed.error.requestId, label).toBe("string");
	return parsed.error as { code: string; message: string };
}

/** An object with an own key that JSON.parse would also make own (`__proto__`, `constructor`), for pollution attempts. */
function withKeys(target: unknown, extra: Record<string, unknown>): unknown {
	if (!target || typeof target !== "object" || Array.isArray(target)) return target;
	const copy: Record<string, unknown> = { ...(target as Record<string, unknown>) };
	for (const [key, value] of Object.entries(extra))
		Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
	return copy;
}
const POLLUTION = JSON.parse(
	'{"__proto__":{"polluted":"yes","isAdmin":true,"workspaceIds":["x"]},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
) as Record<string, unknown>;
const pollutionKeys = fc
	.subarray(Object.keys(POLLUTION), { minLength: 1 })
	.map((keys) => Object.fromEntries(keys.map((k) => [k, POLLUTION[k]])));
/** Nothing the attacker sent became a property of every object in the isolate the Worker runs in. */
function expectUnpolluted(label: string) {
	for (const proto of [Object.prototype, Array.prototype, Function.prototype])
		for (const key of ["polluted", "isAdmin", "workspaceIds"])
			expect(Object.prototype.hasOwnProperty.call(proto, key), `${key} on a prototype after ${label}`).toBe(
				false,
			);
}

// ---------------------------------------------------------------- /mcp

/** The JSON-RPC messages of an answer: one JSON body (or a batch), or the data lines of an event stream. */
function messagesOf(text: string, contentType: string | null): any[] {
	if (!text.trim()) return [];
	if (contentType?.includes("text/event-stream"))
		return text
			.split("\n")
			.filter((line) => line.startsWith("data:"))
			.map((line) => JSON.parse(line.slice(5)));
	const parsed = JSON.parse(text);
	return Array.isArray(parsed) ? parsed : [parsed];
}

/** The codes a JSON-RPC error may carry here: the protocol's refusals. */
const JSON_RPC_REFUSALS = [-32700, -32600, -32601, -32602, -32000, -32001];
/**
 * A JSON-RPC error of the protocol's: a refusal code, or -32603 only as the MCP SDK answers params
 * that fail its own request schema (its list of schema issues, nothing else: upstream
 * modelcontextprotocol/typescript-sdk#2284 says -32602 would be right). Never a crash's message.
 */
function expectJsonRpcRefusal(error: any, label: string) {
	expect(typeof error?.message, label).toBe("string");
	if (error.code === -32603) {
		const issues = JSON.parse(error.message);
		expect(
			Array.isArray(issues) && issues.every((i: any) => typeof i.code === "string" && Array.isArray(i.path)),
			label,
		).toBe(true);
	} else expect(JSON_RPC_REFUSALS, label).toContain(error.code);
}
/** The MCP SDK's own words for arguments or a tool name it refused before any tool ran. */
const MCP_REFUSAL =
	/^MCP error -32602: (Input validation error: |Invalid arguments for tool |Tool .* (not found|disabled)$)/s;
/** The codes a tool error may carry: the API's, and the SDK client's own verdicts on a wait. */
const TOOL_ERROR_CODES = [...ERROR_CODES, "timeout", "video_failed"];
const ID_FIELDS = new Set(["id", "videoId", "clipId", "reprocessId", "workspaceId", "projectId"]);

/** Every id-like field and every link in a tool's result; none may name B's objects. */
function expectNothingOfVictims(value: unknown, victimIds: Set<string>, label: string, field = ""): void {
	if (typeof value === "string") {
		if (ID_FIELDS.has(field)) expect(victimIds.has(value), `B's ${field} in a result: ${label}`).toBe(false);
		for (const id of victimIds)
			expect(
				value.includes(`/api/clips/${id}/`) || value.includes(`/api/videos/${id}/`),
				`a link to B's ${id}: ${label}`,
			).toBe(false);
	} else if (Array.isArray(value)) value.forEach((v) => expectNothingOfVictims(v, victimIds, label, field));
	else if (value && typeof value === "object")
		for (const [k, v] of Object.entries(value)) expectNothingOfVictims(v, victimIds, label, k);
}

/** A JSON Schema's valid values (as tools/list states them), each string field's from its own pool. */
function validFor(schema: any, strings: (field: string) => fc.Arbitrary<string>, field = ""): fc.Arbitrary<unknown> {
	if (!schema || typeof schema !== "object") return fc.anything({ maxDepth: 1 });
	if (schema.enum) return fc.constantFrom(...schema.enum);
	if (schema.const !== undefined) return fc.constant(schema.const);
	const variants = schema.anyOf ?? schema.oneOf;
	if (variants) return fc.oneof(...variants.map((v: any) => validFor(v, strings, field)));
	const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? "object"];
	return fc.oneof(
		...types.map((type): fc.Arbitrary<unknown> => {
			switch (type) {
				case "string":
					return strings(field);
				case "number":
					return fc.oneof(fc.integer({ min: -10, max: 700 }), fc.double({ min: -1, max: 1000, noNaN: true }));
				case "integer":
					return fc.integer({ min: -10, max: 200 });
				case "boolean":
					return fc.boolean();
				case "null":
					return fc.constant(null);
				case "array":
					return fc.array(validFor(schema.items, strings, field), { maxLength: 3 });
				default: {
					const properties: Record<string, any> = schema.properties ?? {};
					const keys = Object.keys(properties);
					if (!keys.length) return fc.constant({});
					return fc.record(Object.fromEntries(keys.map((k) => [k, validFor(properties[k], strings, k)])), {
						requiredKeys: (schema.required ?? []).filter((k: string) => keys.includes(k)),
					});
				}
			}
		}),
	);
}

interface McpTool {
	name: string;
	inputSchema: any;
}

async function mcpCall(
	apiKey: string,
	body: string,
	headers: Record<string, string> = {},
	auth: "key" | "cookie" | "none" = "key",
): Promise<{ status: number; text: string; contentType: string | null }> {
	const sent: Record<string, string> = {
		"content-type": "application/json",
		accept: "application/json, text/event-stream",
		...headers,
	};
	if (auth === "key") sent.authorization = `Bearer ${apiKey}`;
	if (auth === "cookie") sent.cookie = "__Host-cf_session=anything";
	const response = await asAttacker(new Request(`${BASE}/mcp`, { method: "POST", headers: sent, body }));
	return { status: response.status, text: await read(response), contentType: response.headers.get("content-type") };
}

const rpc = (id: unknown, method: string, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

async function listTools(apiKey: string): Promise<McpTool[]> {
	const answer = await mcpCall(apiKey, rpc(1, "tools/list", {}));
	return messagesOf(answer.text, answer.contentType)[0].result.tools;
}

/** Checks one /mcp answer; returns the tool results it carried. */
function expectMcpAnswer(
	answer: { status: number; text: string; contentType: string | null },
	context: { marker: string; victimIds: Set<string>; label: string },
): any[] {
	const { status, text, contentType } = answer;
	const label = `${context.label} → ${status} ${text.slice(0, 400)}`;
	expect(status, label).toBeLessThan(500);
	expect(text.includes(context.marker), `B's data in the answer: ${label}`).toBe(false);
	expect(STACK_TRACE.test(text), `a stack trace or source path: ${label}`).toBe(false);
	if (status >= 400 && !contentType?.includes("text/event-stream")) {
		const parsed = JSON.parse(text);
		// The Worker's own refusals (no key, a body too large, a method) are the API's one body; the
		// transport's are JSON-RPC errors.
		if ("error" in parsed && !("jsonrpc" in parsed)) expectErrorBody(text, label);
		else {
			expect(parsed.jsonrpc, label).toBe("2.0");
			expectJsonRpcRefusal(parsed.error, label);
		}
		return [];
	}
	expect([200, 202], label).toContain(status);
	const results: any[] = [];
	for (const message of messagesOf(text, contentType)) {
		expect(message.jsonrpc, label).toBe("2.0");
		if (message.method) {
			// Only a wait's progress is ever sent unasked.
			expect(message.method, label).toBe("notifications/progress");
			continue;
		}
		expect("result" in message !== "error" in message, `one of result and error: ${label}`).toBe(true);
		if (message.error) {
			expectJsonRpcRefusal(message.error, label);
			continue;
		}
		results.push(message.result);
		const result = message.result;
		if (!Array.isArray(result?.content)) continue; // not a tool's answer (tools/list, ping, initialize)
		if (result.isError) {
			const said = result.content[0]?.text as string;
			const error = result._meta?.["clipforge/error"];
			if (MCP_REFUSAL.test(said)) continue;
			// A refusal of the API, in its words, never a crash's message or a 5xx behind the tool.
			expect(error, `a tool error that is not the API's: ${label}`).toBeTruthy();
			expect(TOOL_ERROR_CODES, label).toContain(error.code);
			expect(said.startsWith(`${error.code}: ${error.message}`), label).toBe(true);
			expect(error.status, label).toBeLessThan(500);
		} else {
			expect(result.structuredContent, label).toBeTruthy();
			expectNothingOfVictims(result.structuredContent, context.victimIds, label);
			expectNothingOfVictims(result.content, context.victimIds, label);
		}
	}
	return results;
}

describe("a hostile tenant against every tool of /mcp", () => {
	it(
		`no 5xx or crash, a JSON-RPC error or the API's refusal as the tool's error, nothing of the other tenant's read or changed (${Math.ceil(RUNS / 2)} messages, seed ${SEED})`,
		{ timeout: 600_000 },
		async () => {
			const w = await world();
			const { b, a } = w;
			const tools = await listTools(a.apiKey);
			expect(tools.length).toBeGreaterThanOrEqual(11);
			const victimIds = new Set(w.victimIds);
			const seen = new Map<string, number>();
			const reached = { answered: 0, refusedByApi: 0 };

			const traversals = fc.constantFrom(
				".",
				"..",
				"%2e%2e",
				`../${b.ids.video}`,
				`${a.video}/../${b.ids.video}`,
			);
			const anyVictimId = fc.constantFrom(...w.victimIds);
			/** Each field's values: B's ids where ids go (A's own beside them), and hostile strings everywhere. */
			const stringsFor = (tool: string) => (field: string) => {
				const pools: Record<string, fc.Arbitrary<string>> = {
					// A's own video is never deleted here: that would end the run's use of A's own objects
					// (deleting one's own video: mcp.test.ts).
					videoId: tool === "delete_video" ? fc.constant(b.ids.video) : fc.constantFrom(a.video, b.ids.video),
					clipId: fc.constantFrom(...a.clips, ...b.clipIds),
					projectId: fc.constant(b.ids.project),
					hostedUrl: fc.constantFrom(
						`https://videos.example.com/unknown-${b.ids.video}.mp4`,
						"http://169.254.169.254/latest/meta-data/",
						`${BASE}/api/videos/${b.ids.video}/source`,
					),
					captionStyle: fc.constantFrom(
						`custom:${b.ids.template}`,
						`custom:${b.ids.video}`,
						CAPTION_PRESET_IDS[0],
					),
					captionTemplateId: fc.constantFrom(`custom:${b.ids.template}`, b.ids.template),
				};
				return fc.oneof(
					{ weight: 6, arbitrary: pools[field] ?? anyVictimId },
					{ weight: 1, arbitrary: anyVictimId },
					{ weight: 1, arbitrary: traversals },
					{ weight: 2, arbitrary: hostileString },
				);
			};
			const argumentsFor = (tool: McpTool) => {
				const valid = validFor(tool.inputSchema, stringsFor(tool.name)) as fc.Arbitrary<
					Record<string, unknown>
				>;
				const fields = Object.keys(tool.inputSchema.properties ?? {});
				return fc.oneof(
					{ weight: 6, arbitrary: valid },
					{
						// Wrong types and hostile values in the tool's own fields (and in fields it does not have).
						weight: 3,
						arbitrary: fc
							.tuple(
								valid,
								fc.dictionary(
									fields.length ? fc.constantFrom(...fields, "extra") : fc.constant("extra"),
									hostileValue(w.victimIds),
									{ minKeys: 1, maxKeys: 3 },
								),
							)
							.map(([args, hostile]) => ({ ...args, ...hostile })),
					},
					{
						weight: 1,
						arbitrary: fc
							.tuple(valid, pollutionKeys)
							.map(([args, keys]) =>
								withKeys(
									args.config && typeof args.config === "object"
										? { ...args, config: withKeys(args.config, keys) }
										: args,
									keys,
								),
							),
					},
					{
						// Oversized: under the body limit (the tool sees it) and over it (413 before any tool).
						weight: 1,
						arbitrary: fc
							.tuple(valid, fc.constantFrom(...fields, "extra"), fc.constantFrom(20_000, 70_000))
							.map(([args, field, size]) => ({ ...args, [field]: "x".repeat(size) })),
					},
					{ weight: 1, arbitrary: fc.constantFrom(undefined, null, [], "x", 1, true, [b.ids.video]) },
				);
			};
			const toolCall = fc.oneof(
				{
					weight: 12,
					arbitrary: fc
						.constantFrom(...tools)
						.chain((tool) => argumentsFor(tool).map((args) => ({ name: tool.name as unknown, args }))),
				},
				{
					weight: 1,
					arbitrary: fc.record({
						name: fc.oneof(
							fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "", "GET_STATUS"),
							hostileValue(w.victimIds),
						),
						args: fc.constant({ videoId: b.ids.video } as unknown),
					}),
				},
			);
			const message = fc.record({
				call: toolCall,
				method: fc.oneof(
					{ weight: 12, arbitrary: fc.constant("tools/call") },
					{
						weight: 2,
						arbitrary: fc.constantFrom(
							"tools/list",
							"initialize",
							"ping",
							"resources/list",
							"resources/read",
							"prompts/get",
							"completion/complete",
							"logging/setLevel",
							"notifications/cancelled",
							"__proto__",
							"",
						),
					},
				),
				id: fc.integer({ min: 1, max: 1_000_000 }),
				// A progress token (a wait reports progress to it), sometimes one the protocol does not allow.
				progressToken: fc.oneof(
					{ weight: 12, arbitrary: fc.constant(null) },
					{ weight: 3, arbitrary: fc.integer() },
					{ weight: 2, arbitrary: fc.string({ maxLength: 5 }) },
					{ weight: 1, arbitrary: fc.constantFrom<unknown>({}, [], true) },
				),
				// Most messages are well formed, so the tools are reached; the rest break one thing about it.
				mutation: fc.oneof(
					{ weight: 10, arbitrary: fc.constant("none") },
					{
						weight: 3,
						arbitrary: fc.constantFrom(
							"batch",
							"notification",
							"no-version",
							"version-1",
							"odd-id",
							"params-not-object",
							"polluted-params",
							"not-json",
							"truncated",
							"accept-json-only",
							"no-accept",
							"text-plain",
							"bad-protocol-version",
							"session-id",
							"cookie-only",
							"no-auth",
						),
					},
				),
				oddId: fc.constantFrom<unknown>("id", null, 1.5, { a: 1 }, [], true, "x".repeat(2000)),
			});

			const build = (m: fc.Arbitrary<any> extends fc.Arbitrary<infer T> ? T : never) => {
				const params =
					m.method === "tools/call"
						? {
								name: m.call.name,
								arguments: m.call.args,
								...(m.progressToken !== null ? { _meta: { progressToken: m.progressToken } } : {}),
							}
						: m.method === "initialize"
							? {
									protocolVersion: "2025-06-18",
									capabilities: {},
									clientInfo: { name: "x", version: "1" },
								}
							: m.call.args;
				const one: Record<string, unknown> = { jsonrpc: "2.0", id: m.id, method: m.method, params };
				switch (m.mutation) {
					case "batch":
						return JSON.stringify([one, { ...one, id: 2 }]);
					case "notification":
						return JSON.stringify({ jsonrpc: "2.0", method: m.method, params });
					case "no-version":
						return JSON.stringify({ ...one, jsonrpc: undefined });
					case "version-1":
						return JSON.stringify({ ...one, jsonrpc: "1.0" });
					case "odd-id":
						return JSON.stringify({ ...one, id: m.oddId });
					case "params-not-object":
						return JSON.stringify({ ...one, params: [m.call.name, m.call.args] });
					case "polluted-params":
						return JSON.stringify(
							withKeys({ ...one, params: withKeys(params ?? {}, POLLUTION) }, POLLUTION),
						);
					case "not-json":
						return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_status",'`;
					case "truncated":
						return JSON.stringify(one).slice(0, -3);
					default:
						return JSON.stringify(one);
				}
			};
			const HEADERS: Record<string, [Record<string, string>, "key" | "cookie" | "none"]> = {
				"accept-json-only": [{ accept: "application/json" }, "key"],
				"no-accept": [{ accept: "" }, "key"],
				"text-plain": [{ "content-type": "text/plain" }, "key"],
				"bad-protocol-version": [{ "mcp-protocol-version": "1999-01-01" }, "key"],
				"session-id": [{ "mcp-session-id": b.ids.video }, "key"],
				"cookie-only": [{}, "cookie"],
				"no-auth": [{}, "none"],
			};

			await fc.assert(
				fc.asyncProperty(message, async (m) => {
					const body = build(m);
					const [headers, auth] = HEADERS[m.mutation] ?? [{}, "key"];
					const answer = await mcpCall(a.apiKey, body, headers, auth);
					const label = `${m.method} ${String(m.call.name)} (${m.mutation}) ${body.slice(0, 300)}`;
					if (m.method === "tools/call")
						seen.set(String(m.call.name), (seen.get(String(m.call.name)) ?? 0) + 1);
					const results = expectMcpAnswer(answer, { marker: b.marker, victimIds, label });
					expectUnpolluted(label);
					// How far each call got: a tool's answer, or the API's refusal behind it.
					for (const result of results)
						if (Array.isArray(result?.content)) {
							if (!result.isError) reached.answered++;
							else if (!MCP_REFUSAL.test(result.content[0]?.text)) reached.refusedByApi++;
						}
				}),
				{ numRuns: Math.ceil(RUNS / 2), seed: SEED, endOnFailure: true },
			);

			// B is exactly as it was (rows, balance, ledger, files); A's balance still equals its ledger.
			expect(await snapshot(b.workspaceId)).toEqual(w.before);
			expect(await balanceOf(a.workspaceId)).toBe(await ledgerSum(a.workspaceId));
			expect(await balanceOf(a.workspaceId)).toBeGreaterThanOrEqual(0);
			// The fuzz got past the protocol: tools answered, and the API itself refused many calls.
			expect(reached.answered).toBeGreaterThan(0);
			expect(reached.refusedByApi).toBeGreaterThan(RUNS / 20);
			// Every tool the server lists was called.
			for (const tool of tools) expect(seen.get(tool.name) ?? 0, tool.name).toBeGreaterThan(0);
		},
	);

	it("the refusals that matter, by name: another tenant's clip through one's own video and back, its video's tools, its template, a polluted or odd message", async () => {
		const w = await world();
		const { b, a } = w;
		const victimIds = new Set(w.victimIds);
		let n = 0;
		/** One tools/call as the attacker; the answer passes every check of the fuzz above. */
		const tool = async (name: string, args: unknown) => {
			const answer = await mcpCall(a.apiKey, rpc(++n, "tools/call", { name, arguments: args }));
			const [result] = expectMcpAnswer(answer, {
				marker: b.marker,
				victimIds,
				label: `${name} ${JSON.stringify(args)}`,
			});
			return result as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
		};
		const refused = async (name: string, args: unknown, said: RegExp) => {
			const result = await tool(name, args);
			expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
			expect(result.content[0]!.text).toMatch(said);
		};

		// get_clip checks that the clip is the video's: A's own clip under B's video, B's clip under A's video.
		await refused(
			"get_clip",
			{ videoId: b.ids.video, clipId: a.clips[0] },
			/^not_found: Clip .* is not among the clips of video /,
		);
		await refused(
			"get_clip",
			{ videoId: a.video, clipId: b.ids.clip },
			/^not_found: Clip .* is not among the clips of video /,
		);
		expect(
			(await tool("get_clip", { videoId: a.video, clipId: a.clips[0] })).structuredContent.clip.downloadUrl,
		).toContain(`/api/clips/${a.clips[0]}/download?token=`);
		// B's video and clip are not found by any tool that takes them; nothing is charged, refunded or changed.
		for (const name of [
			"get_status",
			"wait_for_completion",
			"get_chapters",
			"list_clips",
			"reprocess_video",
			"delete_video",
		])
			await refused(
				name,
				{ videoId: b.ids.video },
				new RegExp(`^not_found: Video ${b.ids.video} was not found\\.$`),
			);
		await refused("update_clip", { clipId: b.ids.clip, title: "mine now", favorited: true }, /^not_found: /);
		// B's project and B's caption template cannot be used from A's workspace.
		await refused(
			"submit_video",
			{ hostedUrl: "https://videos.example.com/unknown.mp4", projectId: b.ids.project },
			/^not_found: /,
		);
		await refused(
			"update_clip",
			{ clipId: a.clips[0], captionStyle: `custom:${b.ids.template}` },
			/^(not_found|invalid_request): /,
		);
		// An idempotency key no header can carry is refused as the tool's input, not a crash's words
		// ("Invalid header value." before: the SDK built the header and the Request threw).
		for (const idempotencyKey of ["a\nb", "clé 🎬", "", "x".repeat(256)])
			await refused(
				"submit_video",
				{ hostedUrl: "https://videos.example.com/unknown.mp4", idempotencyKey },
				/^MCP error -32602: Input validation error: .*idempotencyKey/s,
			);
		// Keys that would pollute a prototype are arguments like any other: refused or ignored, never inherited.
		const polluted = withKeys({ videoId: a.video }, POLLUTION);
		expect((await tool("get_status", polluted)).structuredContent).toMatchObject({
			videoId: a.video,
			status: "completed",
		});
		await refused(
			"reprocess_video",
			withKeys({ videoId: a.video, config: withKeys({}, POLLUTION) }, POLLUTION),
			/^MCP error -32602: Input validation error: /,
		);
		expectUnpolluted("the polluted calls");
		// A message that is not JSON-RPC is the protocol's error, in its shape.
		const broken = await mcpCall(a.apiKey, '{"jsonrpc":"2.0","id":1,"method":');
		expect(broken.status).toBe(400);
		expect(JSON.parse(broken.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
		const unknown = await mcpCall(a.apiKey, rpc(7, "videos/steal", { videoId: b.ids.video }));
		expect(messagesOf(unknown.text, unknown.contentType)).toEqual([
			{ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } },
		]);

		expect(await snapshot(b.workspaceId)).toEqual(w.before);
		expect(await balanceOf(a.workspaceId)).toBe(await ledgerSum(a.workspaceId));
	});
});

// ---------------------------------------------------------------- the signed links

/** The public routes whose token is the credential (after the URL's own normalisation of the path). */
const TOKEN_ROUTE = /^\/api\/(clips\/[^/]+\/(download|thumbnail)|videos\/[^/]+\/source|caption-previews\/[^/]+)$/;

/** A path with each segment decoded as the router decodes its parameters, so two spellings of one path are one. */
function canonical(pathname: string): string {
	return JSON.stringify(
		pathname.split("/").map((segment) => {
			try {
				return decodeURIComponent(segment);
			} catch {
				return segment;
			}
		}),
	);
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Ways to change a token `<exp>.<sig>` that must each lose it its power. */
const tamper = fc.oneof(
	fc.nat().map((i) => (t: string) => {
		const [exp, sig = ""] = t.split(".");
		const at = i % Math.max(sig.length, 1);
		const swapped = BASE64URL[(BASE64URL.indexOf(sig[at] ?? "A") + 1 + (i % 63)) % 64];
		return `${exp}.${sig.slice(0, at)}${swapped}${sig.slice(at + 1)}`;
	}),
	fc.constantFrom<(t: string) => string>(
		(t) => t.replace(/^\d+/, (exp) => String(Number(exp) + 1)),
		(t) => t.replace(/^\d+/, (exp) => String(Number(exp) - 3600)),
		(t) => t.replace(/^\d+/, (exp) => String(Number(exp) * 10)),
		(t) => `0${t}`,
		(t) => `${t}.x`,
		(t) => `${t}.`,
		(t) => `${t}=`,
		(t) => `${t}A`,
		(t) => t.slice(0, -1),
		(t) => ` ${t}`,
		(t) => `${t} `,
		(t) => `${t}\u0000`,
		(t) => t.toUpperCase(),
		(t) => t.replace(/-/g, "+").replace(/_/g, "/"),
		(t) => t.split(".").reverse().join("."),
		(t) => t.replace(".", ".."),
		(t) => t.replace(".", "%2E"),
		(t) => t.split(".")[0]!,
		(t) => `.${t.split(".")[1]}`,
	),
);
/** Tokens of the wrong shape altogether: expiries that are not a count of seconds, huge and empty values. */
const oddToken = fc.oneof(
	fc.constantFrom(
		"",
		".",
		"1.",
		".AAAA",
		"abc",
		"-1.AAAA",
		"1e12.AAAA",
		"0x7fffffff.AAAA",
		"2030-01-01T00:00:00Z.AAAA",
		"9999999999999.AAAA",
		`${"9".repeat(12)}.${"A".repeat(43)}`,
		"9".repeat(100_000),
		`1.${"A".repeat(100_000)}`,
		"NaN.AAAA",
		"Infinity.AAAA",
		"../../etc/passwd",
	),
	hostileString,
);
const TRAVERSALS = [
	"..",
	".",
	"%2e%2e",
	"%2E%2E%2F",
	"..%2f..%2f",
	"..%5c..%5c",
	"%00",
	"%252e%252e",
	"x".repeat(10_000),
];

describe("a hostile tenant against the signed links (clip files, sources, caption previews)", () => {
	it(
		`a link opens its one object for its one purpose while it lasts; nothing else opens anything, in the one error body (${RUNS} requests, seed ${SEED})`,
		{ timeout: 600_000 },
		async () => {
			const w = await world();
			const { b, a, links } = w;
			const victimIds = w.victimIds;
			const now = Date.now();
			const expired = await Promise.all(links.map((l) => twinOf(l, now - 2 * 3600_000)));
			const forged = await Promise.all(links.map((l) => twinOf(l, now, "a secret nobody was given, 32 chars")));
			/** Which link a (path, token) pair is, and which pairs are links that expired. */
			const issued = new Map(links.map((l) => [`${canonical(l.path)}\n${l.token}`, l]));
			const lapsed = new Set(links.map((l, i) => `${canonical(l.path)}\n${expired[i]}`));
			const count = { opened: 0, refusedOnItsRoute: 0 };

			const ids = [
				...victimIds,
				a.video,
				...a.clips,
				...links.filter((l) => l.kind === "preview").map((l) => l.id),
			];
			const segment = fc.oneof(
				{ weight: 4, arbitrary: fc.constantFrom(...ids).map(encodeURIComponent) },
				{ weight: 2, arbitrary: hostileString.map(encodeURIComponent) },
				{ weight: 2, arbitrary: fc.constantFrom(...TRAVERSALS) },
				{ weight: 1, arbitrary: fc.constantFrom(...ids).map((id) => `${id}%2F..%2F..%2F${b.ids.video}`) },
			);
			const hostilePath = fc.oneof(
				fc
					.tuple(
						fc.constantFrom(
							"clips/{}/download",
							"clips/{}/thumbnail",
							"videos/{}/source",
							"caption-previews/{}",
						),
						segment,
					)
					.map(([route, id]) => `/api/${route.replace("{}", id)}`),
				// Raw dot segments: the URL resolves them before the router sees the path.
				fc
					.tuple(fc.constantFrom(...links), fc.constantFrom(...links))
					.map(([x, y]) => `${x.path}/../../..${y.path.replace(/^\/api/, "")}`),
				fc.constantFrom(...links).map((l) => `${l.path}/`),
				fc.constantFrom(...links).map((l) => l.path.replace("/api/", "/API/")),
			);
			const request = fc.record({
				link: fc.constantFrom(...links),
				other: fc.constantFrom(...links),
				path: fc.oneof(
					{ weight: 5, arbitrary: fc.constant("its own") },
					{ weight: 4, arbitrary: fc.constant("another link's") },
					{ weight: 2, arbitrary: hostilePath },
				),
				token: fc.oneof(
					{ weight: 5, arbitrary: fc.constant("its own") },
					{ weight: 4, arbitrary: tamper },
					{ weight: 1, arbitrary: fc.constantFrom("expired", "forged", "mixed") },
					{ weight: 2, arbitrary: oddToken },
				),
				placement: fc.constantFrom(
					"query",
					"query",
					"query",
					"query",
					"query",
					"none",
					"twice, a bad one first",
					"another name",
					"as a bearer",
					"with exp and sig",
				),
				method: fc.constantFrom("GET", "GET", "GET", "GET", "GET", "GET", "HEAD", "HEAD", "POST", "DELETE"),
				range: fc.constantFrom(
					null,
					null,
					null,
					null,
					"bytes=0-9",
					"bytes=-5",
					"bytes=5-",
					"bytes=999999999-",
					"bytes=9-5",
					"bytes=0-0,2-3",
					"bytes=abc",
					`bytes=0-${"9".repeat(400)}`,
					"items=0-1",
				),
				withKey: fc.boolean(),
			});

			await fc.assert(
				fc.asyncProperty(request, async (r) => {
					const i = links.indexOf(r.link);
					const path =
						r.path === "its own"
							? r.link.path
							: r.path === "another link's"
								? r.other.path
								: (r.path as string);
					const token =
						r.token === "its own"
							? r.link.token
							: r.token === "expired"
								? expired[i]!
								: r.token === "forged"
									? forged[i]!
									: r.token === "mixed"
										? `${r.link.token.split(".")[0]}.${r.other.token.split(".")[1]}`
										: typeof r.token === "function"
											? r.token(r.link.token)
											: r.token;
					const url = new URL(`${BASE}${path}`);
					const headers: Record<string, string> = {};
					if (r.placement === "query") url.searchParams.set("token", token);
					if (r.placement === "twice, a bad one first") {
						url.searchParams.append("token", `${token}x`);
						url.searchParams.append("token", token);
					}
					if (r.placement === "another name") url.searchParams.set("Token", token);
					if (r.placement === "with exp and sig") {
						url.searchParams.set("token", token);
						url.searchParams.set("exp", token.split(".")[0]!);
						url.searchParams.set("sig", token.split(".")[1] ?? "");
					}
					// (a token no header can carry goes in the query instead)
					if (r.placement === "as a bearer" && /^[\x21-\x7e]*$/.test(token))
						headers.authorization = `Bearer ${token}`;
					else if (r.placement === "as a bearer") url.searchParams.set("token", token);
					else if (r.withKey) headers.authorization = `Bearer ${a.apiKey}`;
					if (r.range) headers.range = r.range;
					const given = url.searchParams.get("token");
					const pair = `${canonical(url.pathname)}\n${given}`;
					const link = given === null ? undefined : issued.get(pair);
					// B's own link on its own path is B handing its file out (a link is a bearer's): not the attacker's to hold.
					fc.pre(!(link?.owner === "victim"));
					const opens = link !== undefined && (r.method === "GET" || r.method === "HEAD");

					const response = await asAttacker(new Request(url, { method: r.method, headers }));
					const text = await read(response);
					const label = `${r.method} ${url.pathname.slice(0, 200)}${url.search.slice(0, 200)} range=${r.range} → ${response.status} ${text.slice(0, 200)}`;
					expect(response.status, label).toBeLessThan(500);
					expect(STACK_TRACE.test(text), `a stack trace: ${label}`).toBe(false);
					expect(text.includes(b.marker), `B's data: ${label}`).toBe(false);
					for (const id of victimIds)
						expect(text.includes(id) && response.ok, `B's ${id} served: ${label}`).toBe(false);
					if (opens) {
						expect([200, 206], label).toContain(response.status);
						count.opened++;
						return;
					}
					expect(response.status, `opened without its link: ${label}`).toBeGreaterThanOrEqual(400);
					if (r.method === "HEAD") return; // no body to read
					const error = expectErrorBody(text, label);
					if (TOKEN_ROUTE.test(url.pathname) && r.method === "GET") {
						expect(error.code, label).toBe(lapsed.has(pair) ? "url_expired" : "forbidden");
						count.refusedOnItsRoute++;
					}
				}),
				{ numRuns: RUNS, seed: SEED, endOnFailure: true },
			);

			// Nothing a token route does writes; B is as it was anyway, and A's links did open.
			expect(await snapshot(b.workspaceId)).toEqual(w.before);
			expect(count.opened).toBeGreaterThan(RUNS / 50);
			expect(count.refusedOnItsRoute).toBeGreaterThan(RUNS / 4);
		},
	);

	it("the refusals that matter, by name: one's own link on another tenant's object or another file, an expired, a tampered and a traversing link", async () => {
		const w = await world();
		const { b, links } = w;
		const find = (owner: Link["owner"], kind: Link["kind"], notId?: string) =>
			links.find((l) => l.owner === owner && l.kind === kind && l.id !== notId)!;
		const get = async (path: string, token: string | null, headers: Record<string, string> = {}) => {
			const url = new URL(`${BASE}${path}`);
			if (token !== null) url.searchParams.set("token", token);
			const response = await asAttacker(new Request(url, { headers }));
			const text = await read(response);
			expect(STACK_TRACE.test(text)).toBe(false);
			expect(text.includes(b.marker)).toBe(false);
			return { status: response.status, text };
		};
		const refused = async (path: string, token: string | null, code = "forbidden") => {
			const answer = await get(path, token);
			expect(answer.status, `${path}?token=${token}`).toBe(403);
			expect(expectErrorBody(answer.text, path).code).toBe(code);
		};
		const own = {
			download: find("attacker", "download"),
			thumbnail: find("attacker", "thumbnail"),
			source: find("attacker", "source"),
		};
		const theirs = {
			download: find("victim", "download"),
			thumbnail: find("victim", "thumbnail"),
			source: find("victim", "source"),
			preview: find("victim", "preview"),
		};

		// A's own links open A's files (so the refusals below are the token's doing)…
		for (const link of Object.values(own)) expect((await get(link.path, link.token)).status).toBe(200);
		expect((await get(own.source.path, own.source.token, { range: "bytes=0-9" })).status).toBe(206);
		// …and nothing of B's: on B's clip, B's thumbnail, B's source, B's preview.
		await refused(theirs.download.path, own.download.token);
		await refused(theirs.thumbnail.path, own.thumbnail.token);
		await refused(theirs.source.path, own.source.token);
		await refused(theirs.preview.path, own.download.token);
		// One link, one file: a download link is no thumbnail's, no source's, no other clip's.
		await refused(own.thumbnail.path, own.download.token);
		await refused(own.source.path, own.download.token);
		await refused(theirs.thumbnail.path, theirs.download.token);
		await refused(theirs.source.path, theirs.download.token);
		const another = links.find((l) => l.owner === "victim" && l.kind === "download" && l.id !== theirs.download.id);
		if (another) await refused(another.path, theirs.download.token);
		// Expired (signed right, an hour gone): url_expired. Tampered or forged: forbidden, like no token at all.
		await refused(own.download.path, await twinOf(own.download, Date.now() - 2 * 3600_000), "url_expired");
		await refused(own.download.path, await twinOf(own.download, Date.now(), "a secret nobody was given, 32 chars"));
		const [exp, sig] = own.download.token.split(".") as [string, string];
		await refused(own.download.path, `${Number(exp) + 1}.${sig}`);
		await refused(own.download.path, `${exp}.${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`);
		// A genuine token with anything after it is not that token (accepted before: the check read the first two parts only).
		await refused(own.download.path, `${own.download.token}.x`);
		await refused(own.download.path, `${own.download.token}.`);
		await refused(own.download.path, null);
		await refused(own.download.path, "");
		// Traversal in ids and hashes reaches no other object.
		await refused(`/api/caption-previews/..%2F..%2Fsources%2F${b.ids.video}%2Fsource.mp4`, own.download.token);
		await refused(
			`/api/clips/${encodeURIComponent(`${b.ids.clip}/../${own.download.id}`)}/download`,
			own.download.token,
		);
		await refused(`/api/videos/..%2F..%2Fvideos%2F${b.ids.video}/source`, own.source.token);
		// An encoded dot segment is resolved by the URL before any route: /api/source, which none serves.
		const dots = await get(`/api/videos/%2e%2e/source`, own.source.token);
		expect([dots.status, expectErrorBody(dots.text, "dots").code]).toEqual([404, "not_found"]);
		expect(await snapshot(b.workspaceId)).toEqual(w.before);
	});
});
