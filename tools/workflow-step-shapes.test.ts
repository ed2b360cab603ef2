// `npm run check:workflows`: a change to a deployed step's result shape that in-flight instances cannot read fails.
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compatProblems, currentResults } from "../scripts/check-workflow-compat.ts";
import { stepShapesIn, type Shape } from "../scripts/step-shapes.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const FILE = "/virtual/flow.ts";
const root = join(import.meta.dirname, "..");

/** A workflow file whose "load video" step returns `result` (a TypeScript object literal). */
function flow(result: string): string {
	return `
declare const step: { do<T>(name: string, config: object, run: () => Promise<T> | T): Promise<T> };
const NAMES = { finish: "finish" } as const;
export const FLOW_STEP_NAMES = { render: (n: number, of: number) => \`render clip \${n} of \${of}\` } as const;
export async function run(total: number) {
	const video = await step.do("load video", {}, async () => (${result}));
	await step.do(FLOW_STEP_NAMES.render(1, total), {}, () => ({ key: "k", size: 1 }));
	await step.do(NAMES.finish, {}, () => 1);
	return video;
}`;
}

/** The shapes of the steps of a source file, through the compiler as check:workflows runs it. */
function shapes(source: string): Record<string, Shape> {
	const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2023, lib: ["lib.es2023.d.ts"] };
	const host = ts.createCompilerHost(options);
	const read = host.getSourceFile.bind(host);
	host.getSourceFile = (name, version) =>
		name === FILE ? ts.createSourceFile(name, source, version) : read(name, version);
	host.fileExists = (name) => name === FILE || ts.sys.fileExists(name);
	return stepShapesIn(ts.createProgram([FILE], options, host), FILE);
}

const deployedSource = flow(`{ id: "v1", config: { captions: true, language: "en" as string | null }, minutes: 3 }`);
const deployedResults = shapes(deployedSource);
const check = (changed: string) =>
	compatProblems({ deployedSteps: [], sources: [], migrations: [], deployedResults, results: shapes(flow(changed)) });

describe("a deployed step's result shape", () => {
	it("is read field by field, with names through a step-name table or a template", () => {
		expect(Object.keys(deployedResults)).toEqual(["load video", "render clip {} of {}"]);
		expect(deployedResults["load video"]).toEqual({
			fields: {
				id: { type: "string" },
				config: {
					type: { fields: { captions: { type: "boolean" }, language: { type: "null | string" } } },
				},
				minutes: { type: "number" },
			},
		});
	});

	it("fails a removed field, naming it", () => {
		expect(check(`{ id: "v1", config: { captions: true, language: "en" as string | null } }`)).toEqual([
			expect.stringMatching(/^step "load video" result: field minutes was removed: an instance that finished it/),
		]);
	});

	it("fails a retyped field, however deep", () => {
		expect(check(`{ id: "v1", config: { captions: "yes", language: "en" as string | null }, minutes: 3 }`)).toEqual(
			[expect.stringContaining("field config.captions was retyped from boolean to string")],
		);
		expect(check(`{ id: 1, config: { captions: true, language: "en" as string | null }, minutes: 3 }`)).toEqual([
			expect.stringContaining("field id was retyped from string to number"),
		]);
	});

	it("fails a new required field, which the stored results lack", () => {
		expect(
			check(`{ id: "v1", config: { captions: true, language: "en" as string | null }, minutes: 3, n: 2 }`),
		).toEqual([expect.stringContaining("field n was added as required")]);
	});

	it("passes an added optional field, a wider type and the same shape", () => {
		const optional = `{ id: "v1", config: { captions: true, language: "en" as string | null }, minutes: 3, note: undefined as string | undefined } as { id: string; config: { captions: boolean; language: string | null }; minutes: number; note?: string }`;
		expect(check(optional)).toEqual([]);
		expect(
			check(`{ id: "v1", config: { captions: true, language: "en" as string | null | number }, minutes: 3 }`),
		).toEqual([]);
		expect(check(`{ id: "v1", config: { captions: true, language: "en" as string | null }, minutes: 3 }`)).toEqual(
			[],
		);
	});

	it("fails a deployed step the code still makes whose result it can no longer read", () => {
		// A step moved behind a wrapper the reader does not know: its name is still made, its shape unseen.
		const unread = compatProblems({
			deployedSteps: ["load video"],
			sources: [`await step.do("load video", {}, load);`],
			migrations: [],
			deployedResults,
			results: {},
		});
		expect(unread).toEqual([expect.stringContaining(`step "load video" result: its shape can no longer be read`)]);
	});

	it("reads the video's step runner (staged.one, staged.each) as it reads step.do", () => {
		const results = currentResults(root);
		for (const name of ["load video", "download source", "transcribe chunk {} of {}", "finish"])
			expect(Object.keys(results)).toContain(name);
	});

	it("matches the deployed snapshot for the code as it is", () => {
		const snapshot = JSON.parse(readFileSync(join(root, "src/workflows/deployed-steps.json"), "utf8")) as {
			results: Record<string, Shape>;
		};
		const results = currentResults(root);
		expect(Object.keys(results)).toEqual(expect.arrayContaining(["load video", "render clip {} of {}"]));
		expect(
			compatProblems({
				deployedSteps: [],
				sources: [],
				migrations: [],
				deployedResults: snapshot.results,
				results,
			}),
		).toEqual([]);
	});
});
