/**
 * /api/clips: one file per operation, registered here in the document's order (the signed file
 * URLs, `files.ts`, are public and registered on their own, later in the document).
 */
import type { Api } from "../../../env";
import { registerClipCaptions } from "./captions";
import { registerGetClip } from "./get";
import { registerUpdateClip } from "./update";

export { PUBLIC_CLIP_PATHS, registerClipFiles } from "./files";

export function registerClip(api: Api) {
	registerGetClip(api);
	registerUpdateClip(api);
	registerClipCaptions(api);
}
