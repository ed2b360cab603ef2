/**
 * The two submission routes (POST /api/videos/hosted, POST /api/videos/upload) as one factory: the
 * same Idempotency-Key header, workspace, render client for the probe, 201 body and error list;
 * each route gives its path, words and body, and how its source becomes a video.
 */
import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import { getDb, type Db } from "../../../db/client";
import { queuePosition } from "../../../db/slots";
import type { VideoConfig } from "../../../domain/video-config";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { withIdempotency } from "../../../services/idempotency";
import type { SuppliedCaptions } from "../../../services/supplied-captions";
import { createRenderClient, type RenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { SubmitHostedVideoResponse } from "./schemas";
import { requireVideo, videoInfoView, videoView } from "./views";

/** What every submission body has besides its source. */
interface SubmissionBody {
	config?: VideoConfig;
	workspaceId?: string;
	projectId?: string;
	webhookUrl?: string;
	captions?: SuppliedCaptions;
}

/** The options a submission passes on: the workspace it resolved, and the body's own. */
export interface SubmissionInput {
	workspaceId: string;
	config: VideoConfig | null;
	projectId: string | null;
	webhookUrl: string | null;
	captions: SuppliedCaptions | null;
}

export interface SubmissionRoute<B extends z.ZodType<SubmissionBody>> {
	path: `/videos/${string}`;
	summary: string;
	description: string;
	body: B;
	/** Probes and charges: the video it created. */
	submit: (
		env: Env,
		db: Db,
		probe: RenderClient,
		body: z.output<B>,
		input: SubmissionInput,
	) => Promise<{ videoId: string }>;
}

export function submissionRoute<B extends z.ZodType<SubmissionBody>>(spec: SubmissionRoute<B>) {
	const route = createRoute({
		method: "post",
		path: spec.path,
		tags: ["videos"],
		summary: spec.summary,
		security: BEARER_OR_SESSION,
		request: {
			body: jsonBody(spec.body),
			headers: z.object({
				"idempotency-key": z.string().optional().openapi({
					description:
						"Same key and body within 24 h → the first response again, charged once; same key, other body → 409.",
				}),
			}),
		},
		description: spec.description,
		responses: {
			201: jsonOk(SubmitHostedVideoResponse, "Video created; minutes charged."),
			...errorResponses(400, 401, 402, 403, 404, 409, 413, 422, 429, 503),
		},
	} satisfies RouteConfig);
	return (api: Api) =>
		api.openapi(route, async (c) => {
			// The route is generic over its body, which hides the "json" target from the type of `valid`.
			const body = c.req.valid("json" as never) as z.output<B>;
			const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
			const db = getDb(c.env);
			const outcome = await withIdempotency(db, workspaceId, c.req.header("idempotency-key"), body, async () => {
				const input = {
					workspaceId,
					config: body.config ?? null,
					projectId: body.projectId ?? null,
					webhookUrl: body.webhookUrl ?? null,
					captions: body.captions ?? null,
					signal: c.req.raw.signal,
				};
				const { videoId } = await spec.submit(
					c.env,
					db,
					createRenderClient(c.env, renderInstance.probe(workspaceId)),
					body,
					input,
				);
				return { status: 201, body: await submittedResponse(db, videoId, workspaceId, Boolean(body.config)) };
			});
			if (outcome.replayed) c.header("Idempotent-Replayed", "true");
			return c.json(outcome.body as z.infer<typeof SubmitHostedVideoResponse>, 201);
		});
}

/** The 201 body, once the video is created: the video, its info, and what happens next. */
async function submittedResponse(
	db: Db,
	videoId: string,
	workspaceId: string,
	configured: boolean,
): Promise<z.infer<typeof SubmitHostedVideoResponse>> {
	const row = await requireVideo(db, videoId, [workspaceId]);
	const position = configured && !row.slotClaimedAt ? await queuePosition(db, videoId, workspaceId) : null;
	return {
		message: !configured
			? "Video submitted; send its config to PUT /api/videos/{id}/config to start processing."
			: position
				? `Video submitted; it waits for one of the workspace's processing slots (number ${position} in line) and starts by itself.`
				: "Video submitted; processing has started.",
		video: videoView(row),
		videoInfo: videoInfoView(row),
	};
}
