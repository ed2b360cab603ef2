/**
 * POST /api/videos/hosted as a sequence of checks, cheapest first, so a refused submission never
 * costs a probe, and nothing is charged unless the video row exists.
 */
import type { Db } from "../db/client";
import { balanceOf, chargeAndCreateVideo } from "../db/ledger";
import { projectExists } from "../db/library";
import { waitingVideos } from "../db/slots";
import { planOf } from "../db/workspaces";
import { ApiError } from "../errors";
import { minutesFor } from "../domain/minutes";
import { boundedProbe } from "../domain/video-info";
import type { VideoConfig } from "../domain/video-config";
import { assertCaptionTemplate } from "./caption-templates";
import { assertBackgroundChoice, assertTimeframeInside, startProcessing } from "./configure-video";
import { newId } from "./crypto";
import { RenderTierError, type RenderClient } from "./render-client";
import { queueFull, slotRulesOf } from "./processing-slots";
import { parseSourceUrl } from "./source-url";
import { sourceLimitsFor } from "../settings";
import type { SourceLimits } from "@clipforge/contract";

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
	if (input.config) await assertBackgroundChoice(db, input.workspaceId, input.config, "");
	if (input.config) await assertCaptionTemplate(db, input.workspaceId, input.config);
	const plan = await assertActivePlan(db, input.workspaceId);
	const balance = await balanceOf(db, input.workspaceId);
	if (balance <= 0) throw insufficient(1, balance);
	// Cheap first look (the charge's batch checks again, atomically): a full queue costs no probe.
	const slots = input.config ? await slotRulesOf(env, db, input.workspaceId) : null;
	if (slots && (await waitingVideos(db, input.workspaceId)) >= slots.maxWaiting) throw queueFull(slots);

	const info = await probe(render, url.toString(), sourceLimitsFor(env, plan));
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
	const created = await chargeAndCreateVideo(db, {
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
	}, slots);
	if (created === "queue_full") throw queueFull(slots!);
	if (created === "insufficient") throw insufficient(cost, await balanceOf(db, input.workspaceId));

	if (input.config) await startProcessing(env, db, videoId);
	return { videoId };
}

/** The tier probes under the plan's limits: a direct file too large in pixels or bytes is refused here, before any charge. */
async function probe(render: RenderClient, url: string, limits: SourceLimits) {
	try {
		return boundedProbe(await render.run("probe", { url, limits }, { timeoutMs: PROBE_TIMEOUT_MS }));
	} catch (error) {
		if (!(error instanceof RenderTierError)) throw error;
		if (error.code === "invalid_url") throw new ApiError("invalid_url", error.message);
		if (error.code === "unsupported_source" || error.code === "invalid_request") throw new ApiError("unsupported_source", error.message);
		throw new ApiError("service_unavailable", "The video could not be inspected right now; nothing was charged. Try again shortly.", { cause: error.message });
	}
}

async function assertProjectInWorkspace(db: Db, projectId: string, workspaceId: string): Promise<void> {
	if (!(await projectExists(db, projectId, workspaceId))) throw new ApiError("not_found", `Project ${projectId} was not found in this workspace.`);
}

export async function assertActivePlan(db: Db, workspaceId: string) {
	const plan = await planOf(db, workspaceId);
	const expired = plan?.expiresAt ? Date.parse(plan.expiresAt) <= Date.now() : false;
	if (!plan || !plan.active || expired) {
		throw new ApiError("no_active_plan", plan && expired ? "The workspace's plan has expired." : "The workspace has no active plan.");
	}
	return plan;
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
