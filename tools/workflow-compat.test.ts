// `npm run check:workflows`: a change that would break Workflow instances running through its deploy fails.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compatProblems, stepNamesIn } from "../scripts/check-workflow-compat.ts";

const root = join(import.meta.dirname, "..");
// The workflow's own step.do names, and the video's step names it takes from video-plan.ts's table.
const runner = readFileSync(join(root, "src/workflows/process-video.ts"), "utf8");
const plan = readFileSync(join(root, "src/workflows/video-plan.ts"), "utf8");
const source = `${runner}\n${plan}`;
const deployedSteps = (
	JSON.parse(readFileSync(join(root, "src/workflows/deployed-steps.json"), "utf8")) as { steps: string[] }
).steps;
const migrations = readdirSync(join(root, "migrations"))
	.filter((f) => f.endsWith(".sql"))
	.map((name) => ({ name, sql: readFileSync(join(root, "migrations", name), "utf8") }));

describe("a deploy while videos are in flight", () => {
	it("passes the code as it is, whose step names are the deployed ones", () => {
		expect(stepNamesIn(source)).toEqual(expect.arrayContaining(["render clip {} of {}", "load video"]));
		expect(compatProblems({ deployedSteps, sources: [source], migrations })).toEqual([]);
	});

	it("fails a renamed step, naming it and what an in-flight instance would do", () => {
		const renamed = source.replace("`render clip ${index + 1} of ${total}`", "`render clip ${index + 1}/${total}`");
		expect(renamed).not.toBe(source);
		expect(compatProblems({ deployedSteps, sources: [renamed], migrations })).toEqual([
			expect.stringMatching(
				/^step "render clip \{\} of \{\}" is gone: an instance that finished it .* run it again/,
			),
		]);
	});

	it("adds a step freely", () => {
		const added = source.replace(
			'step.do("load video"',
			'step.do("check the plan", DB_STEP, () => 1);\n\tstep.do("load video"',
		);
		expect(compatProblems({ deployedSteps, sources: [added], migrations })).toEqual([]);
	});

	it("fails a migration that drops or renames what the old code uses, unless it says why that is safe", () => {
		const drop = { name: "0019_drop.sql", sql: "ALTER TABLE `videos` DROP COLUMN `source_start`;" };
		const rename = { name: "0019_rename.sql", sql: "ALTER TABLE clips RENAME COLUMN title TO name;" };
		for (const unsafe of [drop, rename])
			expect(compatProblems({ deployedSteps, sources: [source], migrations: [...migrations, unsafe] })).toEqual([
				expect.stringContaining(`migration ${unsafe.name} would break the old code still running`),
			]);
		const said = { ...drop, sql: `-- deploy-safe: nothing reads source_start since 0.9\n${drop.sql}` };
		expect(compatProblems({ deployedSteps, sources: [source], migrations: [...migrations, said] })).toEqual([]);
		const added = { name: "0019_add.sql", sql: "ALTER TABLE `videos` ADD `drill` integer;" };
		expect(compatProblems({ deployedSteps, sources: [source], migrations: [...migrations, added] })).toEqual([]);
	});
});
