/**
 * Split-screen backgrounds (the built-in library plus a workspace's uploads) and workspace
 * watermarks. Media a user points at is imported by the render tier (fetched through its source
 * guard, checked, normalised) and kept in R2, so renders never depend on the user's URL again.
 */
import {
	BACKGROUND_CATEGORIES,
	BUILTIN_BACKGROUNDS,
	DEFAULT_BACKGROUND_CATEGORY,
	WORKSPACE_JOB_LIMITS,
} from "@clipforge/contract";
import { CUSTOM_BACKGROUND_CATEGORY as CUSTOM_CATEGORY } from "@clipforge/domain";
import type { Db } from "../db/client";
import {
	backgroundsOf,
	countBackgrounds,
	createBackgroundWithin,
	deleteBackgroundRow,
	findBackground,
} from "../db/library";
import { setWatermark as storeWatermark, watermarkOf } from "../db/workspaces";
import { balanceOf } from "../db/ledger";
import { settingsOf } from "../settings";
import { ApiError } from "../errors";
import type { VideoConfig } from "../domain/video-config";
import { assertActivePlan } from "./active-plan";
import { newId } from "./crypto";
import { r2Keys } from "./r2-keys";
import { RenderTierError, type RenderClient } from "./render-client";
import { signInternalObjectUrl } from "./signing";
import { parseSourceUrl } from "./source-url";

export interface BackgroundView {
	id: string;
	name: string;
	categoryId: string;
	builtIn: boolean;
	createdAt: string | null;
}

export async function listBackgrounds(
	db: Db,
	workspaceId: string,
): Promise<{ categories: { id: string; name: string }[]; backgrounds: BackgroundView[] }> {
	const own = await backgroundsOf(db, workspaceId);
	return {
		categories: [...BACKGROUND_CATEGORIES, CUSTOM_CATEGORY],
		backgrounds: [
			...BUILTIN_BACKGROUNDS.map((b) => ({ ...b, builtIn: true, createdAt: null })),
			...own.map((b) => ({
				id: b.id,
				name: b.name,
				categoryId: b.categoryId,
				builtIn: false,
				createdAt: b.createdAt,
			})),
		],
	};
}

/** The background a split-screen video will use: a chosen one, or one of a category picked by the video id. */
export interface ResolvedBackground {
	id: string;
	/** Built-in backgrounds are drawn on first use; uploads already exist in R2. */
	builtIn: boolean;
	objectKey: string;
}

/**
 * Checks the split-screen choice of a config before anything is charged, and returns the
 * background to use (null when split-screen is off). Unknown ids or categories are a 400.
 */
export async function resolveBackground(
	db: Db,
	workspaceId: string,
	config: Pick<VideoConfig, "enableSplitScreen" | "splitScreenBgVideoId" | "splitScreenBgCategoryId">,
	seed: string,
): Promise<ResolvedBackground | null> {
	if (!config.enableSplitScreen) return null;
	const { categories, backgrounds: all } = await listBackgrounds(db, workspaceId);
	if (config.splitScreenBgVideoId) {
		const chosen = all.find((b) => b.id === config.splitScreenBgVideoId);
		if (!chosen) {
			throw new ApiError(
				"invalid_request",
				`Background ${config.splitScreenBgVideoId} does not exist; GET /api/backgrounds lists them.`,
				[{ path: "config.splitScreenBgVideoId", message: "unknown background id" }],
			);
		}
		return backgroundOf(db, chosen);
	}
	const categoryId = config.splitScreenBgCategoryId ?? DEFAULT_BACKGROUND_CATEGORY;
	if (!categories.some((c) => c.id === categoryId)) {
		throw new ApiError(
			"invalid_request",
			`Background category ${categoryId} does not exist; GET /api/backgrounds lists them.`,
			[
				{
					path: "config.splitScreenBgCategoryId",
					message: `must be one of ${categories.map((c) => c.id).join(", ")}`,
				},
			],
		);
	}
	const inCategory = all.filter((b) => b.categoryId === categoryId);
	if (inCategory.length === 0) {
		throw new ApiError(
			"invalid_request",
			`Background category ${categoryId} has no backgrounds yet; add one with POST /api/backgrounds.`,
			[{ path: "config.splitScreenBgCategoryId", message: "empty category" }],
		);
	}
	// Deterministic: a repeated workflow step, or a re-check, picks the same one.
	return backgroundOf(db, inCategory[hashOf(seed) % inCategory.length]!);
}

async function backgroundOf(db: Db, view: BackgroundView): Promise<ResolvedBackground> {
	if (view.builtIn) return { id: view.id, builtIn: true, objectKey: r2Keys.builtinBackground(view.id) };
	const row = await findBackground(db, view.id);
	return { id: view.id, builtIn: false, objectKey: row!.objectKey };
}

function hashOf(text: string): number {
	let hash = 2166136261;
	for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
	return hash;
}

export interface ImportInput {
	url: string;
	name: string | null;
	categoryId: string | null;
}

/**
 * POST /api/backgrounds: imports the video (first 60 s) and records it for the workspace, within
 * its plan's number of backgrounds (`quota_exceeded`, 409, beyond it: deleting one makes room).
 * Counted before the import (a refusal costs no render work) and again, atomically, when the row
 * is written, so simultaneous imports cannot pass the limit together.
 */
export async function importBackground(
	env: Env,
	db: Db,
	render: RenderClient,
	workspaceId: string,
	input: ImportInput,
): Promise<BackgroundView> {
	const url = parseSourceUrl(input.url, env, "url");
	const categoryId = input.categoryId ?? CUSTOM_CATEGORY.id;
	if (![...BACKGROUND_CATEGORIES, CUSTOM_CATEGORY].some((c) => c.id === categoryId)) {
		throw new ApiError("invalid_request", `Category ${categoryId} does not exist.`, [
			{ path: "categoryId", message: "unknown category" },
		]);
	}
	const limit = (await assertMayImport(db, workspaceId)).maxBackgrounds ?? DEFAULT_MAX_BACKGROUNDS;
	const used = await countBackgrounds(db, workspaceId);
	if (used >= limit) throw backgroundQuota(limit, used);
	const id = newId("bg");
	const objectKey = r2Keys.workspaceBackground(workspaceId, id);
	const media = await importMedia(env, render, workspaceId, "background", url.toString(), objectKey);
	const name = input.name?.trim() || url.pathname.split("/").pop() || "Background";
	const row = await createBackgroundWithin(db, limit, {
		id,
		workspaceId,
		name,
		categoryId,
		sourceUrl: url.toString(),
		objectKey,
		width: media.width,
		height: media.height,
		duration: media.duration,
	});
	if (!row) {
		await env.MEDIA.delete(objectKey);
		throw backgroundQuota(limit, await countBackgrounds(db, workspaceId));
	}
	return { id, name, categoryId, builtIn: false, createdAt: row.createdAt };
}

/** Backgrounds a plan keeps unless its row says otherwise (plans.max_backgrounds' default). */
export const DEFAULT_MAX_BACKGROUNDS = 20;

function backgroundQuota(limit: number, used: number): ApiError {
	return new ApiError(
		"quota_exceeded",
		`The workspace has ${used} of the ${limit} backgrounds its plan allows; delete one (DELETE /api/backgrounds/{id}) to add another.`,
		{ limit, used },
	);
}

export type WatermarkInput = { type: "text"; text: string } | { type: "image"; imageUrl: string } | { type: "default" };
export type WatermarkView = { type: "default" | "text" | "image"; text: string | null };

/** PUT /api/workspaces/:id/watermark: the mark every clip of the workspace gets (when enabled). */
export async function setWatermark(
	env: Env,
	db: Db,
	render: RenderClient,
	workspaceId: string,
	input: WatermarkInput,
): Promise<WatermarkView> {
	const previous = await watermarkOf(db, workspaceId);
	let text: string | null = null;
	let imageKey: string | null = null;
	if (input.type === "text") text = input.text.trim();
	if (input.type === "image") {
		const url = parseSourceUrl(input.imageUrl, env, "imageUrl").toString();
		await assertMayImport(db, workspaceId);
		// A new key per upload; videos copy the mark they render with (workflow "prepare the watermark").
		imageKey = r2Keys.watermarkImage(workspaceId, newId("wm"));
		await importMedia(env, render, workspaceId, "watermark", url, imageKey);
	}
	await storeWatermark(db, workspaceId, { watermarkText: text, watermarkImageKey: imageKey });
	if (previous?.watermarkImageKey && previous.watermarkImageKey !== imageKey)
		await env.MEDIA.delete(previous.watermarkImageKey);
	return watermarkView({ watermarkText: text, watermarkImageKey: imageKey });
}

export function watermarkView(row: { watermarkText: string | null; watermarkImageKey: string | null }): WatermarkView {
	if (row.watermarkImageKey) return { type: "image", text: null };
	if (row.watermarkText) return { type: "text", text: row.watermarkText };
	return { type: "default", text: null };
}

/**
 * Fetching a user's URL takes a job on the import instance every tenant shares: only a workspace
 * with an active plan and minutes left may (as a submission's probe); the plan is returned.
 */
async function assertMayImport(db: Db, workspaceId: string) {
	const plan = await assertActivePlan(db, workspaceId);
	const balance = await balanceOf(db, workspaceId);
	if (balance < 1)
		throw new ApiError(
			"insufficient_minutes",
			`Importing media needs a workspace with minutes left; it has ${balance}.`,
			{ required: 1, balance },
		);
	return plan;
}

/** Seconds a workspace whose imports fill its share is told to wait (an import lasts seconds to a couple of minutes). */
const IMPORT_RETRY_AFTER_SECONDS = 15;

async function importMedia(
	env: Env,
	render: RenderClient,
	workspaceId: string,
	kind: "background" | "watermark",
	url: string,
	objectKey: string,
) {
	const putUrl = await signInternalObjectUrl(env, objectKey, "PUT");
	const limits = kind === "watermark" ? settingsOf(env).imageLimits : settingsOf(env).backgroundLimits;
	try {
		// A request waits on it: a lost connection is tried again for seconds, not the workflows' minutes.
		return await render.run(
			"importMedia",
			{ kind, url, putUrl, limits, workspaceId },
			{ reconnectForMs: 15_000, busyWaitMs: 15_000 },
		);
	} catch (error) {
		if (!(error instanceof RenderTierError)) throw error;
		if (error.code === "workspace_busy")
			throw new ApiError(
				"rate_limited",
				`This workspace already has ${WORKSPACE_JOB_LIMITS.importMedia} imports running, its share of the import instance; retry when one has finished.`,
				{ retryAfter: IMPORT_RETRY_AFTER_SECONDS, maxConcurrent: WORKSPACE_JOB_LIMITS.importMedia },
			);
		if (error.code === "invalid_url") throw new ApiError("invalid_url", error.message);
		if (
			error.code === "unsupported_source" ||
			error.code === "source_unreachable" ||
			error.code === "invalid_request"
		) {
			throw new ApiError("unsupported_source", error.message);
		}
		throw new ApiError(
			"service_unavailable",
			`The ${kind === "watermark" ? "image" : "video"} could not be imported right now. Try again shortly.`,
			{ cause: error.message },
		);
	}
}

/** Workspace-owned background rows, for the API's delete route. */
export async function deleteBackground(env: Env, db: Db, workspaceId: string, id: string): Promise<void> {
	const row = await findBackground(db, id, workspaceId);
	if (!row) throw new ApiError("not_found", `Background ${id} was not found in this workspace.`);
	await deleteBackgroundRow(db, id);
	await env.MEDIA.delete(row.objectKey);
}
