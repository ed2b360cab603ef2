/**
 * Where a video's words come from, for the config it will be processed with (domain/transcript-source.ts),
 * as its row records it: at submission when the config comes with it, else when PUT …/config sends it.
 */
import { LOCAL_TRANSCRIBER_LANGUAGES } from "@clipforge/domain";
import type { TranscriptRecord } from "../db/videos";
import { planTranscript } from "../domain/transcript-source";
import type { VideoConfig } from "../domain/video-config";
import { ApiError } from "../errors";
import { settingsOf } from "../settings";

export interface TranscriptInputs {
	/** Captions came with the submission, and the language they look like. */
	captions: { supplied: boolean; language: string | null };
	sourceSubtitles: { tracks: { lang: string; automatic: boolean }[]; language: string | null } | null;
}

export function transcriptRecordFor(
	env: Parameters<typeof settingsOf>[0],
	config: Pick<VideoConfig, "language" | "sourceSubtitles">,
	inputs: TranscriptInputs,
): TranscriptRecord {
	const plan = planTranscript({
		captions: inputs.captions,
		tracks: inputs.sourceSubtitles?.tracks ?? [],
		sourceLanguage: inputs.sourceSubtitles?.language ?? null,
		config,
		hears: settingsOf(env).transcriber === "local" ? LOCAL_TRANSCRIBER_LANGUAGES : "any",
	});
	if (plan.source === "unheard")
		throw new ApiError("unsupported_language", plan.message, { language: plan.language, hears: plan.hears });
	return {
		source: plan.source,
		subtitleTrack: plan.source === "subtitles" ? plan.track : null,
		language: plan.language,
	};
}
