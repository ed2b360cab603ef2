/**
 * Loaded with `node --import` into the processes run from the scratch image: appends every file a
 * module specifier resolves to, by `import` and `require` alike, to RESOLUTIONS_LOG, one URL a
 * line, so the test can see that nothing the tier loads comes from outside the image.
 */
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const log = process.env.RESOLUTIONS_LOG;
if (!log) throw new Error("RESOLUTIONS_LOG names the file to append to.");
const seen = new Set<string>();
registerHooks({
	resolve(specifier, context, nextResolve) {
		const resolved = nextResolve(specifier, context);
		if (resolved.url.startsWith("file:") && !seen.has(resolved.url)) {
			seen.add(resolved.url);
			appendFileSync(log, `${resolved.url}\n`);
		}
		return resolved;
	},
});
