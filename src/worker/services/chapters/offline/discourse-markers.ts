/**
 * Discourse markers: how a sentence that opens a new topic often begins ("moving on", "next",
 * "let's talk about", and weakly "okay", "so"). Read by the segmentation to place a chapter's start
 * among the sentences around a change of vocabulary.
 */

/** Openers that announce a new topic, strong and weak. */
const STRONG_MARKER =
	/^(?:(?:so|and|okay|ok|alright|all right|right|now|well)[,\s]+)*(?:moving on|next|let's (?:talk|move|turn|look|go|start|get)|let us|turning to|on to|the next (?:thing|point|item|topic|question|step)|another (?:thing|topic|question|point|issue)|anyway|finally|first of all|to start|last(?:ly)?|the (?:other|last) (?:thing|point|item|topic))\b/i;
const WEAK_MARKER = /^(?:okay|ok|alright|all right|right|so|now|well)\b/i;

export function markerStrength(text: string): number {
	const opening = text.replace(/^[^\p{L}]+/u, "");
	if (STRONG_MARKER.test(opening)) return 1;
	return WEAK_MARKER.test(opening) ? 0.35 : 0;
}
