/**
 * POST /api/videos/hosted as a sequence of checks, cheapest first, so a refused submission never
 * costs a probe, and nothing is charged unless the video row exists.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { plans, projects, workspaces } from "../db/schema";
import { ApiError } from "../errors";
import { frameOf, type VideoConfig } from "../domain/video-config";
import { newId } from "./crypto";
import { resolveBackground } from "./media-library";
import { minutesFor } from "../domain/minutes";
import { chargeAndCreateVideo } from "./minutes";
import { RenderTierError, type RenderClient } from "./render-client";
import { parseSourceUrl } from "./source-url";
import { startProcessing } from "./start-processing";
import { markFailedAndRefund } from "./video-state";

export interface SubmitInput {
	workspaceId: string;
	hostedUrl: string;
	config: VideoConfig | null;
	projectId: string | null;
	webhookUrl: string | null;
}

/** The probe answers synchronously; past this the submission is refused with 503, nothing charged. */
const PROBE_TIMEOUT_MS = 30_000;

export async function submitHostedVideo(env: Env, db: Db, render: RenderClient, input: SubmitInput) {
	const url = parseSourceUrl(input.hostedUrl, env);
	const webhookUrl = input.webhookUrl ? parseSourceUrl(input.webhookUrl, env, "webhookUrl").toString() : null;
	if (input.projectId) await assertProjectInWorkspace(db, input.projectId, input.workspaceId);
	// An unknown background is a 400 now, not a failed video (and a refund) later.
	if (input.config) await resolveBackground(db, input.workspaceId, input.config, "");
	const plan = await assertActivePlan(db, input.workspaceId);
	const balance = await balanceOf(db, input.workspaceId);
	if (balance <= 0) throw insufficient(1, balance);

	const info = await probe(render, url.toString());
	if (!info.hasAudio) {
		throw new ApiError("unsupported_source", "The video has no audio track: clipforge finds clips in what is said. Nothing was charged.");
	}
	if (info.duration > plan.maxVideoSeconds) {
		throw new ApiError("video_too_long", `The video is ${formatDuration(info.duration)} long; your plan allows up to ${formatDuration(plan.maxVideoSeconds)}.`, {
			duration: info.duration,
			maxDuration: plan.maxVideoSeconds,
		});
	}
	if (input.config) assertTimeframeInside(input.config, info.duration);

	const cost = minutesFor(info.duration, input.config);
	const videoId = newId("vid");
	const created = await chargeAndCreateVideo(env.DB, {
		id: videoId,
		workspaceId: input.workspaceId,
		projectId: input.projectId,
		sourceUrl: url.toString(),
		title: info.title,
		status: input.config ? "downloading" : "pending_config",
		config: input.config,
		sourceVideoId: info.id,
		duration: info.duration,
		thumbnail: info.thumbnail,
		channelName: info.channelName,
		minutesCharged: cost,
		webhookUrl,
	});
	if (!created) throw insufficient(cost, await balanceOf(db, input.workspaceId));

	if (input.config) {
		try {
			await startProcessing(env, videoId);
		} catch (error) {
			await markFailedAndRefund(env.DB, videoId, "Processing could not be started; the minutes were refunded.");
			throw error;
		}
	}
	return { videoId };
}

export function assertTimeframeInside(config: VideoConfig, duration: number): void {
	if (config.timeframeStart >= duration) {
		throw new ApiError("invalid_request", "The request is invalid.", [
			{ path: "config.timeframeStart", message: `must be less than the video's duration (${duration} s)` },
		]);
	}
	const frame = frameOf(config, duration);
	if (frame.end - frame.start < 1) {
		throw new ApiError("invalid_request", "The request is invalid.", [{ path: "config.timeframeEnd", message: "the time frame is shorter than one second" }]);
	}
}

async function probe(render: RenderClient, url: string) {
	try {
		return await render.run("probe", { url }, { timeoutMs: PROBE_TIMEOUT_MS });
	} catch (error) {
		if (!(error instanceof RenderTierError)) throw error;
		if (error.code === "invalid_url") throw new ApiError("invalid_url", error.message);
		if (error.code === "unsupported_source" || error.code === "invalid_request") throw new ApiError("unsupported_source", error.message);
		throw new ApiError("service_unavailable", "The video could not be inspected right now; nothing was charged. Try again shortly.", { cause: error.message });
	}
}

async function assertProjectInWorkspace(db: Db, projectId: string, workspaceId: string): Promise<void> {
	const project = await db.select({ id: projects.id }).from(projects).where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId))).get();
	if (!project) throw new ApiError("not_found", `Project ${projectId} was not found in this workspace.`);
}

async function assertActivePlan(db: Db, workspaceId: string) {
	const plan = await db.select().from(plans).where(eq(plans.workspaceId, workspaceId)).get();
	const expired = plan?.expiresAt ? Date.parse(plan.expiresAt) <= Date.now() : false;
	if (!plan || !plan.active || expired) {
		throw new ApiError("no_active_plan", plan && expired ? "The workspace's plan has expired." : "The workspace has no active plan.");
	}
	return plan;
}

export async function balanceOf(db: Db, workspaceId: string): Promise<number> {
	const row = await db.select({ balance: workspaces.minutesBalance }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
	return row?.balance ?? 0;
}

function insufficient(required: number, balance: number): ApiError {
	return new ApiError("insufficient_minutes", `This video needs ${required} minute(s); the workspace has ${balance}.`, { required, balance });
}

function formatDuration(seconds: number): string {
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	const s = Math.round(seconds % 60);
	return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
}
