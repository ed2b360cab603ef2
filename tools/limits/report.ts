/**
 * `npm run limits:report`: measures what docs/limits.md says of the platform's limits, writes the
 * numbers into bench-results/limits.json (and, through the tests it runs, limits-runtime.json),
 * then writes them into the doc's figures (figures.ts). `--check` measures nothing: it fails when
 * the doc's figures differ from those files (`make checks` runs it).
 *
 *   npm run limits:report                    # everything (several minutes on two cores)
 *   npm run limits:report -- --skip workerd  # keep the last heap figures (also: runtime, deploy)
 *   npm run limits:report -- --check
 *
 * What it runs: the Workers-runtime tests whose figures the doc cites (RUNTIME_TESTS, with
 * LIMITS_RECORD set: the platform guard's largest values and the tests' `[limits-figure]` lines);
 * the rank step inside workerd (rank-in-workerd.ts); `wrangler deploy --dry-run` and the startup
 * profile (scripts/deploy-check.ts); the Workers AI requests one video makes (model-calls.ts);
 * the render tier's self-check on this machine. The Node rank-step figures are
 * `npm run bench:rank-step`'s (bench-results/rank-step.json), read as they are.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
	REQUIRED_ENCODERS,
	REQUIRED_FILTERS,
	REQUIRED_FONT_FILES,
	selfCheck,
} from "../../containers/render/src/self-check.ts";
import { runDeployCheck } from "../../scripts/deploy-check.ts";
import { QUIET_WRANGLER_ENV } from "../../scripts/wrangler.ts";
import { DOC, docProblems, readInputs, renderDoc, REPORT_FILE, ROOT, type LimitsReport } from "./figures.ts";
import { modelCallsOf } from "./model-calls.ts";
import { measureRankInWorkerd } from "./rank-in-workerd.ts";

/** The Workers-runtime tests whose guard values and figures the doc cites (where its worst cases are met). */
export const RUNTIME_TESTS = [
	"test/integration/outgoing-connections.test.ts",
	"test/workflows/step-budget.test.ts",
	"test/workflows/process-video.test.ts",
	"test/workflows/reprocess.test.ts",
	"test/integration/smoke.test.ts",
	"test/integration/input-limits.test.ts",
	"test/integration/login-throttle.security.test.ts",
];

const { values } = parseArgs({
	options: { check: { type: "boolean", default: false }, skip: { type: "string", multiple: true, default: [] } },
});

if (values.check) {
	const problems = docProblems(readFileSync(DOC, "utf8"), readInputs());
	if (problems.length > 0) {
		console.error(
			`docs/limits.md differs from the measurements (npm run limits:report):\n  ${problems.join("\n  ")}`,
		);
		process.exit(1);
	}
	console.log("docs/limits.md: every figure is the measured one, every row asserted or measured only");
	process.exit(0);
}

const skip = new Set(values.skip);
const previous: Partial<LimitsReport> = existsSync(REPORT_FILE) ? JSON.parse(readFileSync(REPORT_FILE, "utf8")) : {};
const log = (line: string) => console.log(`limits: ${line}`);

if (!skip.has("runtime")) {
	log(`the Workers-runtime tests (${RUNTIME_TESTS.length} files, LIMITS_RECORD)`);
	const run = spawnSync(
		process.execPath,
		[join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "vitest.config.ts", ...RUNTIME_TESTS],
		{
			cwd: ROOT,
			env: { ...QUIET_WRANGLER_ENV, LIMITS_RECORD: "1" },
			stdio: ["ignore", "inherit", "inherit"],
		},
	);
	if (run.status !== 0) throw new Error("limits: the Workers-runtime tests failed; nothing recorded");
}

const rankInWorkerd =
	skip.has("workerd") && previous.rankInWorkerd ? previous.rankInWorkerd : await measureRankInWorkerd({ log });
const deployCheck =
	skip.has("deploy") && previous.deployCheck
		? previous.deployCheck
		: (({ totalBytes, gzipBytes, startupActiveMs }) => ({ totalBytes, gzipBytes, startupActiveMs }))(
				runDeployCheck(),
			);
log(`deploy check: ${deployCheck.gzipBytes} bytes compressed, startup ${deployCheck.startupActiveMs} ms`);
const modelCalls = { thirtyMinutes: await modelCallsOf(30), threeHours: await modelCallsOf(180) };
const tier = await selfCheck();
const workerd = (
	JSON.parse(readFileSync(join(ROOT, "node_modules/workerd/package.json"), "utf8")) as { version: string }
).version;
const report: LimitsReport = {
	measuredAt: new Date().toISOString(),
	workerd,
	rankInWorkerd,
	deployCheck,
	modelCalls,
	selfCheck: {
		ok: tier.ok,
		ffmpeg: tier.versions.ffmpeg,
		ytDlp: tier.versions.ytDlp,
		warnings: tier.warnings,
		filters: REQUIRED_FILTERS.length,
		encoders: REQUIRED_ENCODERS.length,
		fontFiles: REQUIRED_FONT_FILES.length,
	},
};
writeFileSync(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(DOC, renderDoc(readFileSync(DOC, "utf8"), readInputs()));
log(`wrote bench-results/limits.json and the figures of docs/limits.md`);
// Something imported keeps a handle open (the tier's modules): the report is done, so is the process.
process.exit(0);
