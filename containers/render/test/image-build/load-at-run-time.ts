/**
 * Run from the scratch image with the tier's folder as working folder: imports every module of
 * src/ and its folders (one imported only lazily would not show when the server starts), then
 * detects faces in one blank frame, which is when BlazeFace's code, its WebAssembly binary and its
 * weights are first read. Prints `{"modules": n, "faces": n}`.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const src = join(process.cwd(), "src");
const modules = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
for (const file of modules) await import(pathToFileURL(join(src, file)).href);
const { detectFaces } = (await import(
	pathToFileURL(join(src, "framing", "faces.ts")).href
)) as typeof import("../../src/framing/faces.ts");
const faces = await detectFaces(new Uint8Array(64 * 64 * 3), 64, 64);
console.log(JSON.stringify({ modules: modules.length, faces: faces.length }));
// The tier's modules may hold timers (the sweep): this run is done.
process.exit(0);
