/**
 * /api/uploads: a video file uploaded in parts (resumable), to submit with POST /api/videos/upload.
 * One file per operation, registered in the order the OpenAPI document lists them.
 */
import type { Api } from "../../../env";
import { registerCompleteUpload } from "./complete";
import { registerCreateUpload } from "./create";
import { registerDeleteUpload } from "./delete";
import { registerUploadPart } from "./part";
import { registerUpload } from "./upload";

export { PUBLIC_UPLOAD_PATHS } from "./part";

export function registerUploads(api: Api): void {
	for (const register of [
		registerCreateUpload,
		registerUpload,
		registerUploadPart,
		registerCompleteUpload,
		registerDeleteUpload,
	])
		register(api);
}
