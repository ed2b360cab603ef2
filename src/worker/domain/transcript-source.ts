/**
 * Where a video's words come from, decided at submission, before anything is charged:
 *
 * 1. captions the user supplied (SRT or WebVTT) replace transcription;
 * 2. else the source's own subtitles, when `sourceSubtitles` allows them (`manual`: made by people,
 *    the default; `any`: also automatic ones) and a track is in the speech's language: the config's
 *    `language`, or, when that is null, the language the source says it speaks (an automatic
 *    track's `-orig`), or the one track made by people there is;
 * 3. else speech recognition, which must hear the language: the local transcriber hears only
 *    English, so another language without captions is `unheard`: refused at submission (422
 *    `unsupported_language`, services/transcript-plan.ts), never charged and failed later.
 */
import { languageBase, languageName, type LanguageCode } from "@clipforge/domain";
import type { VideoConfig } from "./video-config";

export interface SubtitleTrack {
	/** As the source names it: "en", "en-US", "hi", "en-orig" (YouTube's automatic track in the spoken language). */
	lang: string;
	automatic: boolean;
}

export type TranscriptPlan =
	| { source: "captions"; language: string | null }
	| { source: "subtitles"; track: SubtitleTrack; language: string }
	| { source: "transcription"; language: string | null }
	/** No way to the words: the transcriber does not hear the language, and nothing else is there to read. */
	| { source: "unheard"; language: string; hears: string[]; message: string };

export interface TranscriptChoice {
	/** What the supplied captions' language looks like (null: none supplied, or not told). */
	captions: { supplied: boolean; language: string | null };
	/** The source's subtitle tracks (the probe's), and the language it says it speaks. */
	tracks: readonly SubtitleTrack[];
	sourceLanguage: string | null;
	config: Pick<VideoConfig, "language" | "sourceSubtitles">;
	/** The languages the transcriber hears ("any": Whisper's, every language clipforge lists). */
	hears: readonly LanguageCode[] | "any";
}

export function planTranscript(choice: TranscriptChoice): TranscriptPlan {
	const { config } = choice;
	if (choice.captions.supplied) return { source: "captions", language: config.language ?? choice.captions.language };
	const track = config.sourceSubtitles === "off" ? null : subtitleTrackFor(choice);
	if (track) return { source: "subtitles", track, language: config.language ?? languageBase(track.lang) };
	return unheard(config.language, choice.hears) ?? { source: "transcription", language: config.language };
}

/** "en-US" → "en"; "en-orig" → "en". */

function subtitleTrackFor(choice: TranscriptChoice): SubtitleTrack | null {
	const allowed = choice.tracks.filter((t) => !t.automatic || choice.config.sourceSubtitles === "any");
	const manual = allowed.filter((t) => !t.automatic);
	const wanted = choice.config.language ?? choice.sourceLanguage;
	const inWanted = (tracks: SubtitleTrack[]) =>
		wanted ? tracks.find((t) => languageBase(t.lang) === wanted) : undefined;
	if (wanted) return inWanted(manual) ?? inWanted(allowed.filter((t) => t.automatic)) ?? null;
	// Not told the language: one track made by people is the speech's; an automatic one marked -orig is too.
	if (manual.length === 1) return manual[0]!;
	return allowed.find((t) => t.automatic && /-orig$/i.test(t.lang)) ?? null;
}

function unheard(language: string | null, hears: TranscriptChoice["hears"]): TranscriptPlan | null {
	if (hears === "any" || language === null || (hears as readonly string[]).includes(language)) return null;
	return {
		source: "unheard",
		language,
		hears: [...hears],
		message: `This service's transcriber (offline, local) only hears ${hears.map(languageName).join(", ")}, not ${languageName(language)}: supply the video's captions (\`captions\`, SRT or WebVTT), or submit a source that has subtitles in it. Nothing was charged.`,
	};
}
