/**
 * /api/caption-templates: the preset caption looks and the workspace's own templates (a preset plus
 * its font, colours and position), each with a preview image drawn by the render tier; create,
 * change and delete the workspace's own: its brand kit, so like its webhook and API keys only its
 * owner or an admin (or one of its API keys) may; any member lists them. And the previews' signed
 * URLs, /api/caption-previews/{hash}?token= (public: the token is the credential, one hour).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { CAPTION_FONT_IDS, CAPTION_POSITIONS, CAPTION_PRESET_IDS, HEX_COLOR } from "@clipforge/contract";
import { getDb } from "../../db/client";
import type { Api } from "../../env";
import { ApiError } from "../../errors";
import { resolveManagedWorkspace, resolveWorkspace } from "../../middleware/auth";
import { createTemplate, deleteTemplate, listCaptionTemplates, TEMPLATE_CHOICES, updateTemplate } from "../../services/caption-templates";
import { createRenderClient } from "../../services/render-client";
import { renderInstance } from "../../services/render-instances";
import { r2Keys } from "../../services/r2-keys";
import { serveR2Object } from "../../services/serve-object";
import { checkCaptionPreviewToken } from "../../services/signing";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../openapi";

export const PUBLIC_CAPTION_PREVIEW_PATHS = ["/caption-previews/:hash"];

const Color = z.string().regex(HEX_COLOR, "must be a colour as #RRGGBB").openapi({ example: "#FFE600" });
const Font = z.enum(CAPTION_FONT_IDS);
const Position = z.enum(CAPTION_POSITIONS);

const CaptionTemplate = z
	.object({
		id: z.string().openapi({ description: "Use as `captionTemplateId`: a preset id, or `custom:<id>` for the workspace's own.", example: "custom:ct_3kf9a" }),
		kind: z.enum(["preset", "custom"]),
		name: z.string(),
		description: z.string(),
		presetId: z.enum(CAPTION_PRESET_IDS).openapi({ description: "The preset look a custom template starts from (a preset's own id)." }),
		font: Font,
		textColor: z.string(),
		highlightColor: z.string().openapi({ description: "The spoken word (karaoke), its box (highlight-box), the second line (two-color), emoji and the lower third's bar." }),
		position: Position,
		overrides: z
			.object({ font: z.string().nullable(), textColor: z.string().nullable(), highlightColor: z.string().nullable(), position: z.string().nullable() })
			.nullable()
			.openapi({ description: "What a custom template changes on its preset (null fields keep the preset's); null for presets." }),
		previewUrl: z.string().nullable().openapi({ description: "A PNG of sample words in this look (360x640), signed for one hour; null while it cannot be drawn." }),
		createdAt: z.string().nullable(),
		updatedAt: z.string().nullable(),
	})
	.openapi("CaptionTemplate");

const MANAGERS = "Needs the workspace's owner or an admin (a signed-in member gets 403 `forbidden`), or one of the workspace's API keys.";
const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });
/** A saved template's id, as listed (`custom:ct_…`) or bare (`ct_…`). */
const TemplateId = z
	.string()
	.regex(/^(custom:)?ct_[A-Za-z0-9_-]{1,64}$/, "a custom template's id (custom:ct_… or ct_…)")
	.transform((id) => id.replace(/^custom:/, ""))
	.openapi({ param: { name: "id", in: "path" }, example: "custom:ct_3kf9a" });

const overrides = {
	font: Font.nullable().optional().openapi({ description: "One of `fonts` in the list; null = the preset's." }),
	textColor: Color.nullable().optional(),
	highlightColor: Color.nullable().optional(),
	position: Position.nullable().optional(),
};

const listRoute = createRoute({
	method: "get",
	path: "/caption-templates",
	tags: ["caption templates"],
	summary: "The preset caption looks, then the workspace's own templates (newest first), each with a preview image",
	security: BEARER_OR_SESSION,
	request: { query: WorkspaceQuery },
	responses: {
		200: jsonOk(
			z.object({
				templates: z.array(CaptionTemplate),
				fonts: z.array(z.object({ id: Font, name: z.string() })).openapi({ description: "Fonts a template may use." }),
				positions: z.array(Position),
			}),
			"The looks.",
		),
		...errorResponses(400, 401, 403),
	},
});

const createTemplateRoute = createRoute({
	method: "post",
	path: "/caption-templates",
	tags: ["caption templates"],
	summary: "Save a caption template for the workspace: a preset with its own font, colours and position (brand kit)",
	description: MANAGERS,
	security: BEARER_OR_SESSION,
	request: {
		body: jsonBody(
			z
				.strictObject({ name: z.string().trim().min(1).max(80), presetId: z.enum(CAPTION_PRESET_IDS), ...overrides, workspaceId: z.string().min(1).max(64).optional() })
				.openapi("CreateCaptionTemplate"),
		),
	},
	responses: { 201: jsonOk(CaptionTemplate, "Saved; use its `id` as `captionTemplateId`."), ...errorResponses(400, 401, 403, 409) },
});

const updateTemplateRoute = createRoute({
	method: "patch",
	path: "/caption-templates/{id}",
	tags: ["caption templates"],
	summary: "Change a template of the workspace (videos already rendered keep their look)",
	description: MANAGERS,
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ id: TemplateId }),
		query: WorkspaceQuery,
		body: jsonBody(z.strictObject({ name: z.string().trim().min(1).max(80).optional(), presetId: z.enum(CAPTION_PRESET_IDS).optional(), ...overrides }).openapi("UpdateCaptionTemplate")),
	},
	responses: { 200: jsonOk(CaptionTemplate, "Changed."), ...errorResponses(400, 401, 403, 404) },
});

const deleteTemplateRoute = createRoute({
	method: "delete",
	path: "/caption-templates/{id}",
	tags: ["caption templates"],
	summary: "Delete a template of the workspace (videos already submitted with it still render with it)",
	description: MANAGERS,
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: TemplateId }), query: WorkspaceQuery },
	responses: { 204: { description: "Deleted." }, ...errorResponses(401, 403, 404) },
});

export function registerCaptionTemplates(api: Api) {
	// Previews are short one-frame jobs: they share the import pool with backgrounds and watermarks.
	const render = (env: Env) => createRenderClient(env, renderInstance.import("caption-previews"));
	const origin = (url: string) => new URL(url).origin;
	api.openapi(listRoute, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		const templates = await listCaptionTemplates(c.env, getDb(c.env), render(c.env), workspaceId, origin(c.req.url));
		return c.json({ templates, ...TEMPLATE_CHOICES }, 200);
	});
	api.openapi(createTemplateRoute, async (c) => {
		const { workspaceId: requested, ...input } = c.req.valid("json");
		const workspaceId = resolveManagedWorkspace(c.get("principal"), requested);
		return c.json(await createTemplate(c.env, getDb(c.env), render(c.env), workspaceId, input, origin(c.req.url)), 201);
	});
	api.openapi(updateTemplateRoute, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		return c.json(await updateTemplate(c.env, getDb(c.env), render(c.env), workspaceId, c.req.valid("param").id, c.req.valid("json"), origin(c.req.url)), 200);
	});
	api.openapi(deleteTemplateRoute, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		await deleteTemplate(getDb(c.env), workspaceId, c.req.valid("param").id);
		return c.body(null, 204);
	});
	api.on(["GET", "HEAD"], "/caption-previews/:hash", async (c) => {
		const hash = c.req.param("hash");
		const key = /^[0-9a-f]{32}$/.test(hash) ? r2Keys.captionPreview(hash) : null;
		const verdict = key ? await checkCaptionPreviewToken(c.env, key, c.req.query("token")) : "invalid";
		if (verdict === "expired") throw new ApiError("url_expired", "This preview link has expired; list the caption templates again for a fresh one.");
		if (verdict !== "valid" || !key) throw new ApiError("forbidden", "This link is not valid.");
		const response = await serveR2Object(c.env.MEDIA, key, c.req.raw);
		if (!response) throw new ApiError("not_found", "The preview is no longer stored; list the caption templates again.");
		return response;
	});
}
