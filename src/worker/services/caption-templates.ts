/**
 * Caption templates: the preset looks (packages/contract/src/looks.ts, re-exported by words.ts) and a workspace's own saved
 * templates (`custom:<id>`: a preset plus its font, colours and position), resolved into the full
 * look the render tier draws; their preview images, drawn once per look by the tier and kept in R2.
 *
 * Who may change a workspace's templates: its owner or an admin, or one of its API keys (the
 * routes check, as for the webhook and API keys: the brand kit speaks for the whole workspace);
 * any member lists them and uses them.
 */
import {
	applyOverrides,
	CAPTION_FONTS,
	CAPTION_OVERRIDE_FIELDS,
	CAPTION_POSITIONS,
	CAPTION_PRESETS,
	normalizeOverride,
	presetLook,
	type CaptionLook,
	type CaptionLookData,
	type CaptionOverrideField,
	type CaptionPresetId,
} from "@clipforge/contract";
import type { Db } from "../db/client";
import {
	captionTemplatesOf,
	createCaptionTemplateWithin,
	liveCaptionTemplateCount,
	deleteCaptionTemplate,
	findCaptionTemplate,
	updateCaptionTemplate,
	type CaptionTemplateChanges,
	type CaptionTemplateFields,
	type CaptionTemplateRow,
} from "../db/caption-templates";
import { customTemplateIdOf } from "../domain/caption-template-id";
import { ApiError } from "../errors";
import { logger } from "../lib/log";
import { newId, sha256Hex } from "./crypto";
import { r2Keys } from "./r2-keys";
import type { RenderClient } from "./render-client";
import { signCaptionPreviewUrl, signInternalObjectUrl } from "./signing";

/** Bumped when the tier's drawing of previews changes, so every preview is drawn again. */
const PREVIEW_VERSION = "v1";
/** Templates a workspace may keep. */
export const MAX_CAPTION_TEMPLATES = 50;
/** Previews drawn at once when a list finds some missing (each is one short ffmpeg run). */
const PREVIEW_PARALLELISM = 3;

/** The caption-template fields (the contract's CAPTION_TEMPLATE_FIELDS) as a look resolves them. */
type ResolvedFields = Pick<CaptionLookData, CaptionOverrideField>;

export type CaptionTemplateView = {
	id: string;
	kind: "preset" | "custom";
	name: string;
	description: string;
	presetId: CaptionPresetId;
	/** What a custom template changes on its preset (null = the preset's); null for presets. */
	overrides: Record<CaptionOverrideField, string | null> | null;
	previewUrl: string | null;
	createdAt: string | null;
	updatedAt: string | null;
} & ResolvedFields;

export type TemplateInput = {
	name: string;
	presetId: CaptionPresetId;
} & { [K in CaptionOverrideField]?: ResolvedFields[K] | string | null };

const preset = (id: string) => CAPTION_PRESETS.find((p) => p.id === id);

/** The look of a saved template: its preset with its overrides. */
export function lookOfTemplate(row: Omit<CaptionTemplateFields, "name">): CaptionLook {
	if (!preset(row.presetId)) throw new Error(`caption template preset ${row.presetId} is unknown`);
	return applyOverrides(presetLook(row.presetId as CaptionPresetId), row);
}

/** Each field of the table, picked from `from` (the view's resolved values, a row's overrides). */
const fieldsOf = <T extends Record<CaptionOverrideField, unknown>>(from: T) =>
	Object.fromEntries(CAPTION_OVERRIDE_FIELDS.map((f) => [f, from[f]])) as Pick<T, CaptionOverrideField>;
/** A new template's fields before its input's: all the preset's. */
const PRESET_FIELDS = Object.fromEntries(CAPTION_OVERRIDE_FIELDS.map((f) => [f, null])) as Record<
	CaptionOverrideField,
	null
>;

/** The input's fields as stored: given ones normalised (colours in upper case), null for the preset's. */
function storedFields(input: Partial<TemplateInput>): Partial<Record<CaptionOverrideField, string | null>> {
	const given = CAPTION_OVERRIDE_FIELDS.filter((f) => input[f] !== undefined);
	return Object.fromEntries(given.map((f) => [f, input[f] ? normalizeOverride(f, input[f]) : null]));
}

/**
 * A config's `captionTemplateId` as the look the tier draws. A custom template deleted after the
 * video was submitted still resolves (deletion only hides it from lists and new submissions).
 */
export async function resolveCaptionLook(db: Db, workspaceId: string, templateId: string): Promise<CaptionLook> {
	const customId = customTemplateIdOf(templateId);
	if (!customId) {
		if (!preset(templateId))
			throw new ApiError("invalid_request", `Caption template ${templateId} does not exist.`);
		return presetLook(templateId as CaptionPresetId);
	}
	const row = await findCaptionTemplate(db, customId, workspaceId, { includeDeleted: true });
	if (!row) throw new ApiError("invalid_request", `Caption template ${templateId} does not exist in this workspace.`);
	return lookOfTemplate(row);
}

/**
 * An unknown (or another workspace's, or deleted) custom template is a 400 before anything is
 * charged. `current`: the template the video already has (a reprocess may keep it even if deleted).
 */
export async function assertCaptionTemplate(
	db: Db,
	workspaceId: string,
	config: { captionTemplateId: string },
	current?: string,
	path = "config.captionTemplateId",
): Promise<void> {
	const customId = customTemplateIdOf(config.captionTemplateId);
	if (
		!customId ||
		(await findCaptionTemplate(db, customId, workspaceId, { includeDeleted: config.captionTemplateId === current }))
	)
		return;
	throw new ApiError(
		"invalid_request",
		`Caption template ${config.captionTemplateId} does not exist in this workspace; GET /api/caption-templates lists them.`,
		[{ path, message: "unknown caption template" }],
	);
}

// ---------------------------------------------------------------- the API's operations

export async function listCaptionTemplates(
	env: Env,
	db: Db,
	render: RenderClient,
	workspaceId: string,
	origin: string,
): Promise<CaptionTemplateView[]> {
	const rows = await captionTemplatesOf(db, workspaceId);
	const views = [...CAPTION_PRESETS.map((p) => presetView(p.id)), ...rows.map(customView)];
	const looks = [...CAPTION_PRESETS.map((p) => presetLook(p.id)), ...rows.map(lookOfTemplate)];
	const urls = await previewUrls(env, render, looks, origin);
	return views.map((view, i) => ({ ...view, previewUrl: urls[i] ?? null }));
}

export async function createTemplate(
	env: Env,
	db: Db,
	render: RenderClient,
	workspaceId: string,
	input: TemplateInput,
	origin: string,
): Promise<CaptionTemplateView> {
	const existing = await captionTemplatesOf(db, workspaceId);
	if (existing.length >= MAX_CAPTION_TEMPLATES) throw templateQuota(existing.length);
	assertNameFree(existing, input.name, null);
	// Counted again in the insert itself: concurrent creates cannot pass the cap together.
	const row = await createCaptionTemplateWithin(db, MAX_CAPTION_TEMPLATES, {
		id: newId("ct"),
		workspaceId,
		name: input.name.trim(),
		presetId: input.presetId,
		...PRESET_FIELDS,
		...storedFields(input),
	});
	if (!row) throw templateQuota(await liveCaptionTemplateCount(db, workspaceId));
	return withPreview(env, render, row, origin);
}

function templateQuota(used: number): ApiError {
	return new ApiError(
		"quota_exceeded",
		`The workspace has ${used} of the ${MAX_CAPTION_TEMPLATES} caption templates it may keep; delete one (DELETE /api/caption-templates/{id}) to add another.`,
		{ limit: MAX_CAPTION_TEMPLATES, used },
	);
}

const PREVIEW_PREFIX = "caption-previews/";

/** Previews are a cache of looks (one PNG per look hash, for everyone): one not written for this long goes. */
export const PREVIEW_MAX_AGE_DAYS = 30;

/**
 * The cron's purge of caption previews older than PREVIEW_MAX_AGE_DAYS: looks edited or deleted
 * leave theirs behind otherwise, forever; a look still listed is drawn again by the next list
 * (ensurePreview), so only what nobody asks for stays gone. @returns previews deleted.
 */
export async function purgeOldPreviews(env: Pick<Env, "MEDIA">, now = Date.now()): Promise<number> {
	const cutoff = now - PREVIEW_MAX_AGE_DAYS * 86_400_000;
	let deleted = 0;
	let cursor: string | undefined;
	do {
		const page = await env.MEDIA.list({ prefix: PREVIEW_PREFIX, cursor });
		const old = page.objects.filter((o) => o.uploaded.getTime() < cutoff).map((o) => o.key);
		if (old.length > 0) await env.MEDIA.delete(old);
		deleted += old.length;
		cursor = page.truncated ? page.cursor : undefined;
	} while (cursor);
	return deleted;
}

export async function updateTemplate(
	env: Env,
	db: Db,
	render: RenderClient,
	workspaceId: string,
	id: string,
	changes: Partial<TemplateInput>,
	origin: string,
): Promise<CaptionTemplateView> {
	const patch: CaptionTemplateChanges = {};
	if (changes.name !== undefined) {
		assertNameFree(await captionTemplatesOf(db, workspaceId), changes.name, id);
		patch.name = changes.name.trim();
	}
	if (changes.presetId !== undefined) patch.presetId = changes.presetId;
	Object.assign(patch, storedFields(changes));
	const row =
		Object.keys(patch).length > 0
			? await updateCaptionTemplate(db, id, workspaceId, patch)
			: ((await findCaptionTemplate(db, id, workspaceId)) ?? null);
	if (!row) throw notFound(id);
	return withPreview(env, render, row, origin);
}

export async function deleteTemplate(db: Db, workspaceId: string, id: string): Promise<void> {
	if (!(await deleteCaptionTemplate(db, id, workspaceId))) throw notFound(id);
}

/** Two live templates of a workspace never share a name (ignoring case), so a picker can tell them apart. */
function assertNameFree(rows: CaptionTemplateRow[], name: string, exceptId: string | null): void {
	const wanted = name.trim().toLowerCase();
	const clash = rows.find((r) => r.id !== exceptId && r.name.toLowerCase() === wanted);
	if (clash)
		throw new ApiError("conflict", `The workspace already has a caption template named "${clash.name}".`, {
			id: `custom:${clash.id}`,
		});
}

/** Another workspace's template answers as an unknown one: its existence is not revealed. */
const notFound = (id: string) => new ApiError("not_found", `Caption template ${id} was not found in this workspace.`);

async function withPreview(
	env: Env,
	render: RenderClient,
	row: CaptionTemplateRow,
	origin: string,
): Promise<CaptionTemplateView> {
	const [previewUrl] = await previewUrls(env, render, [lookOfTemplate(row)], origin);
	return { ...customView(row), previewUrl: previewUrl ?? null };
}

function presetView(id: CaptionPresetId): CaptionTemplateView {
	const p = preset(id)!;
	const look = presetLook(id);
	return {
		id,
		kind: "preset",
		name: p.name,
		description: p.description,
		presetId: id,
		...fieldsOf(look),
		overrides: null,
		previewUrl: null,
		createdAt: null,
		updatedAt: null,
	};
}

function customView(row: CaptionTemplateRow): CaptionTemplateView {
	const look = lookOfTemplate(row);
	const base = preset(row.presetId)!;
	return {
		id: `custom:${row.id}`,
		kind: "custom",
		name: row.name,
		description: `${base.name}, with the workspace's own settings.`,
		presetId: row.presetId as CaptionPresetId,
		...fieldsOf(look),
		overrides: fieldsOf(row),
		previewUrl: null,
		createdAt: row.createdAt,
		updatedAt: row.updatedAt,
	};
}

// ---------------------------------------------------------------- previews

/** The look's preview name: the same look (a preset, or a template equal to it) shares one image. */
export async function previewHash(look: CaptionLook): Promise<string> {
	return (await sha256Hex(`${PREVIEW_VERSION}\n${canonicalJson(look)}`)).slice(0, 32);
}

/**
 * Signed URLs of each look's preview, drawing the missing ones first (a few at a time). A preview the
 * tier cannot draw right now is null; the next list tries again.
 */
async function previewUrls(
	env: Env,
	render: RenderClient,
	looks: CaptionLook[],
	origin: string,
): Promise<(string | null)[]> {
	const hashes = await Promise.all(looks.map(previewHash));
	const unique = [...new Set(hashes)];
	const stored = new Map<string, boolean>();
	let next = 0;
	const lane = async () => {
		while (next < unique.length) {
			const hash = unique[next++]!;
			stored.set(hash, await ensurePreview(env, render, hash, looks[hashes.indexOf(hash)]!));
		}
	};
	await Promise.all(Array.from({ length: Math.min(PREVIEW_PARALLELISM, unique.length) }, lane));
	return Promise.all(
		hashes.map((hash) =>
			stored.get(hash) ? signCaptionPreviewUrl(env, origin, hash, r2Keys.captionPreview(hash)) : null,
		),
	);
}

async function ensurePreview(env: Env, render: RenderClient, hash: string, look: CaptionLook): Promise<boolean> {
	const key = r2Keys.captionPreview(hash);
	if (await env.MEDIA.head(key)) return true;
	try {
		// A request waits on it: a lost connection is tried again for seconds, not the workflows' minutes.
		await render.run(
			"captionPreview",
			{ look, putUrl: await signInternalObjectUrl(env, key, "PUT") },
			{ reconnectForMs: 15_000, busyWaitMs: 15_000 },
		);
		return true;
	} catch (error) {
		logger().error("caption_preview_failed", { hash, error });
		return false;
	}
}

function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== "object") return JSON.stringify(value);
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
	const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
	return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** The choices a template may make, for the API's list (and pickers). */
export const TEMPLATE_CHOICES = {
	fonts: CAPTION_FONTS.map((f) => ({ id: f.id, name: f.name })),
	positions: [...CAPTION_POSITIONS],
};
