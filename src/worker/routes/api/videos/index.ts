/**
 * /api/videos: one file per operation (the two submissions share one factory,
 * `submission-route.ts`). Exported here one `register…` per place in the document's order, which
 * interleaves them with other resources' (routes/api/index.ts); a reprocess and the list of a
 * video's reprocesses sit together.
 */
import type { Api } from "../../../env";
import { registerReprocess as registerReprocessVideo } from "./reprocess";
import { registerReprocessList } from "./reprocesses";

export { registerChapters } from "./chapters";
export { registerClips } from "./clips";
export { registerConfigure } from "./config";
export { registerDeleteVideo } from "./delete";
export { registerExport } from "./export";
export { registerVideo } from "./get";
export { registerSubmitHosted } from "./hosted";
export { registerVideoList } from "./list";
export { PUBLIC_SOURCE_PATHS, registerSourceFile } from "./source-file";
export { registerSourceUrl } from "./source-url";
export { registerStatus } from "./status";
export { registerTranscript } from "./transcript";
export { registerSubmitUpload } from "./upload";
export { registerVideoWebhooks } from "./webhooks";

/** POST …/reprocess, then GET …/reprocesses. */
export function registerReprocess(api: Api) {
	registerReprocessVideo(api);
	registerReprocessList(api);
}
