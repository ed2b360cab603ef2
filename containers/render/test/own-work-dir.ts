/**
 * Each test file's tier gets a work folder of its own, set before any of the tier's modules load
 * (tool-paths.ts reads WORK_DIR once, at import). Without it, a file that set WORK_DIR in its
 * beforeAll, after its static imports, shared the default folder with every other such file run
 * alongside it, and one file's download could be cleaned away under another's feet.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const ownWorkDir = mkdtempSync(join(tmpdir(), "render-test-work-"));
process.env.WORK_DIR = ownWorkDir;
afterAll(() => rmSync(ownWorkDir, { recursive: true, force: true }));
