/** POST /api/videos/hosted: submit a hosted video URL (Idempotency-Key aware). */
import { submitHostedVideo } from "../../../services/submit-video";
import { SubmitHostedVideoBody } from "./schemas";
import { submissionRoute } from "./submission-route";

export const registerSubmitHosted = submissionRoute({
	path: "/videos/hosted",
	summary: "Submit a hosted video URL for processing",
	description:
		"Charges the minutes at once. A workspace processes at most its plan's number of videos at once (default 2); a video over that is still accepted (201, charged) " +
		"and waits its turn in `downloading` with `job.queuePosition` in its status. At most 50 may wait: past that the submission is refused with 429 `queue_full` (nothing charged).",
	body: SubmitHostedVideoBody,
	submit: (env, db, probe, body, input) => submitHostedVideo(env, db, probe, { ...input, hostedUrl: body.hostedUrl }),
});
