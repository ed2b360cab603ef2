/**
 * The "rank moments" step's work inside workerd, for `npm run limits:report`
 * (tools/limits/rank-in-workerd.ts runs it under `wrangler dev`, with and without a V8 heap cap):
 * the whole Worker's code is loaded, as in the isolate a step runs in, then `POST /rank?case=…`
 * parses the transcript it is sent (as the step parses the one it reads from R2) and ranks it
 * with the real ranker, imported lazily as the step does, and an instant stand-in model.
 */
import worker from "../../src/worker/index";
import { defaultConfig } from "../../src/worker/domain/video-config";
import type { Transcript } from "@clipforge/moments/text";
import { instantModel } from "../../tools/quality/instant-model";

export default {
	async fetch(request, env, ctx) {
		const url = new URL(request.url);
		// Anything else is the Worker's: its code stays in the bundle, and in the heap.
		if (url.pathname !== "/rank") return worker.fetch(request, env, ctx);
		const which = url.searchParams.get("case") ?? "offline";
		const transcript = JSON.parse(await request.text()) as Transcript;
		const { rankMoments } = await import("@clipforge/moments/rank-moments");
		const llm = which === "offline" ? null : instantModel();
		const config = {
			...defaultConfig(),
			clipModel: which === "ClipPro" ? ("ClipPro" as const) : ("ClipBasic" as const),
		};
		const outcome = await rankMoments(transcript, config, null, llm);
		return Response.json({
			words: transcript.words.length,
			clips: outcome.clips.length,
			llmCalls: llm?.calls ?? 0,
		});
	},
} satisfies ExportedHandler<Env>;
