/**
 * docs/limits.md says what the measurements say (figures.ts): its figures are the ones rendered from
 * bench-results, a figure changed by hand or an unknown one is caught, and every row of its tables
 * is either asserted by test files that exist or marked measured only. `make checks` runs the same
 * check (`npm run limits:report -- --check`).
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { DOC, docProblems, FIGURES, readInputs, renderDoc } from "./figures.ts";

const doc = readFileSync(DOC, "utf8");
const inputs = readInputs();

it("every figure of docs/limits.md is the measured one, and every row is asserted or measured only", () => {
	expect(docProblems(doc, inputs)).toEqual([]);
	expect(renderDoc(doc, inputs)).toBe(doc);
	// Every figure the report can write is in the doc.
	for (const key of Object.keys(FIGURES)) expect(doc, key).toContain(`<!--f:${key}-->`);
});

it("a figure typed over, an unknown figure, or a row without its tests is named", () => {
	const typed = doc.replace(/(<!--f:bundle-->)[^<]*/, "$19.99 MB");
	expect(docProblems(typed, inputs)).toEqual([
		expect.stringMatching(/^figure bundle says "9\.99 MB", the measurements say/),
	]);
	const unknown = doc.replace("<!--f:bundle-->", "<!--f:bundel-->");
	expect(docProblems(unknown, inputs)).toContain("unknown figure bundel");
	const unchecked = doc.replace("**Asserted**: `test/workflows/step-budget.test.ts` (the real", "Tests (the real");
	expect(docProblems(unchecked, inputs)).toEqual([
		expect.stringMatching(/^row "10,000 steps per instance.*neither \*\*Asserted\*\*.*nor \*\*Measured only\*\*$/),
	]);
	const missing = doc.replace("`tools/rank-in-workerd.test.ts`", "`tools/rank-in-workerd-gone.test.ts`");
	expect(docProblems(missing, inputs)).toEqual([
		expect.stringMatching(/tools\/rank-in-workerd-gone\.test\.ts does not exist$/),
	]);
});
