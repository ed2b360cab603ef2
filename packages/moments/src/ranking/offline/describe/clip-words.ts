/** What the offline ranker writes for a clip, whatever its language. */
import type { ClipHooks } from "../../ranked-clip.ts";

export interface ClipWords {
	title: string;
	/** Other titles, best first (a video's clips never share one). */
	titleChoices: string[];
	hookTitle: string;
	viralityReason: string;
	hooks: ClipHooks;
	emotions: string[];
	description: string;
}
