/**
 * A small HTTP file server for loopback use: serves a folder with Range support (as real video
 * hosts do, and as ffmpeg's HTTP reader expects), and optionally accepts PUTs into it.
 * Used by `make demo` and `make up` to serve the sample video, and by the tests.
 *
 * CLI: `node scripts/serve-files.ts <folder> [--port N]` (prints its URL; runs until stopped)
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, normalize, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";

export interface FileServer {
	url: string;
	server: Server;
	close(): Promise<void>;
}

const TYPES: Record<string, string> = {
	mp4: "video/mp4",
	jpg: "image/jpeg",
	mp3: "audio/mpeg",
	txt: "text/plain",
	json: "application/json",
};

/** The file whole (200) or the byte range asked for (206, or 416 when it lies outside the file); HEAD sends no body. */
function sendFile(req: IncomingMessage, res: ServerResponse, file: string, size: number): void {
	const type = TYPES[file.split(".").pop() ?? ""] ?? "application/octet-stream";
	const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
	if (range && (range[1] || range[2])) {
		const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
		const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
		if (start >= size || start > end) {
			res.writeHead(416, { "content-range": `bytes */${size}` }).end();
			return;
		}
		res.writeHead(206, {
			"content-type": type,
			"accept-ranges": "bytes",
			"content-length": end - start + 1,
			"content-range": `bytes ${start}-${end}/${size}`,
		});
		if (req.method === "HEAD") res.end();
		else createReadStream(file, { start, end }).pipe(res);
		return;
	}
	res.writeHead(200, { "content-type": type, "accept-ranges": "bytes", "content-length": size });
	if (req.method === "HEAD") res.end();
	else createReadStream(file).pipe(res);
}

export function serveDirectory(
	root: string,
	options: { port?: number; acceptPut?: boolean } = {},
): Promise<FileServer> {
	const server = createServer(async (req, res) => {
		const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
			/^(\.\.[/\\])+/,
			"",
		);
		const file = join(root, path);
		if (!file.startsWith(root)) {
			res.writeHead(403).end();
			return;
		}
		if (req.method === "PUT" && options.acceptPut) {
			await mkdir(dirname(file), { recursive: true });
			await pipeline(req, createWriteStream(file));
			res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ path }));
			return;
		}
		const info = await stat(file).catch(() => null);
		if (!info?.isFile()) {
			res.writeHead(404, { "content-type": "text/plain" }).end("File not found");
			return;
		}
		sendFile(req, res, file, info.size);
	});
	return new Promise((resolve) => {
		server.listen(options.port ?? 0, "127.0.0.1", () => {
			const { port } = server.address() as AddressInfo;
			resolve({
				url: `http://127.0.0.1:${port}`,
				server,
				close: () => new Promise((r) => server.close(() => r())),
			});
		});
	});
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: { port: { type: "string", default: "0" } },
	});
	if (positionals.length !== 1) {
		console.error("usage: node scripts/serve-files.ts <folder> [--port N]");
		process.exit(2);
	}
	const files = await serveDirectory(resolve(positionals[0]!), { port: Number(values.port) });
	console.log(files.url);
}
