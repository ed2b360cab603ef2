/** POST /api/videos/upload: submit a completed upload (POST /api/uploads) with a config, like a hosted URL (Idempotency-Key aware). */
import { submitUploadedVideo } from "../../../services/submit-video";
import { SubmitUploadedVideoBody } from "./schemas";
import { submissionRoute } from "./submission-route";

export const registerSubmitUpload = submissionRoute({
	path: "/videos/upload",
	summary: "Submit an uploaded video file for processing",
	description:
		"The upload must be completed (POST /api/uploads/{id}/complete; else 409 `conflict`) and not yet submitted (409). The file is probed like a hosted URL: " +
		"not a video → 422 `unsupported_source`, longer than the plan allows → 413 `video_too_long`, nothing charged. Then the same config, stages, charging and " +
		"processing slots as POST /api/videos/hosted; the video's `sourceType` is `upload`, and its id is the one the upload reserved.",
	body: SubmitUploadedVideoBody,
	submit: (env, db, probe, body, input) => submitUploadedVideo(env, db, probe, { ...input, uploadId: body.uploadId }),
});
