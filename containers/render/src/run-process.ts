/**
 * The only code in the render tier that starts a process: node:child_process `spawn` with its own
 * `signal` and `timeout`. Arguments are always an array (never a shell string), so user text cannot
 * become shell syntax; every run has a timeout and can be cancelled through an AbortSignal (the
 * HTTP request closing, say). Every process reaches the network only through the tier's egress
 * proxy (egress-args.ts: its environment, and ffmpeg's and ffprobe's input flags), and what it
 * prints is kept with every URL's query string and credentials removed (redact.ts), so a signed
 * URL never ends up in an error message.
 */
import { spawn } from "node:child_process";
import { wholeMilliseconds } from "@clipforge/contract";
import { egressArgs, egressEnvironment } from "./egress-args.ts";
import { egressProxy } from "./egress-proxy.ts";
import { runningJobName } from "./job-context.ts";
import { redactUrls } from "./redact.ts";
import { tools } from "./tool-paths.ts";

export class ProcessError extends Error {
	/** `internal`: the job asked for something no process can be given (a bug in the tier, not the media). */
	readonly reason: "exit" | "timeout" | "aborted" | "spawn" | "internal";
	readonly exitCode: number | null;
	readonly stderrTail: string;
	constructor(message: string, reason: ProcessError["reason"], exitCode: number | null, stderrTail: string) {
		super(message);
		this.name = "ProcessError";
		this.reason = reason;
		this.exitCode = exitCode;
		this.stderrTail = stderrTail;
	}
}

export interface RunOptions {
	/** Rounded up to a whole millisecond and capped at a timer's range; NaN or ≤ 0 is refused as a bug. */
	timeoutMs: number;
	signal?: AbortSignal;
	cwd?: string;
	/** Called for each complete stdout line as it arrives (ffmpeg `-progress pipe:1`, yt-dlp progress). */
	onStdoutLine?: (line: string) => void;
	onStderrLine?: (line: string) => void;
	/** Keep stdout in the result (off for long streams that are consumed line by line). */
	collectStdout?: boolean;
	/**
	 * Binary stdout (raw video frames), instead of lines. The process is paused while the returned
	 * promise runs (backpressure), and a rejection kills it and becomes the run's error.
	 */
	onStdoutBytes?: (chunk: Buffer) => Promise<void> | void;
}

export interface RunResult {
	stdout: string;
	stderr: string;
}

const STDERR_TAIL_CHARS = 8_000;

/**
 * Runs `command` with `args` and resolves when it exits 0.
 * @example
 * await runProcess("ffprobe", ["-v", "error", "-show_format", "-of", "json", url], { timeoutMs: 20_000 });
 */
export async function runProcess(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
	const proxy = (await egressProxy()).url;
	const tool =
		command === tools.ffmpeg
			? "ffmpeg"
			: command === tools.ffprobe
				? "ffprobe"
				: command === tools.ytDlp
					? "yt-dlp"
					: "other";
	const job = runningJobName();
	const timeoutMs = processTimeoutMs(options.timeoutMs, tool === "other" ? command : tool, job);
	return new Promise((resolve, reject) => {
		const started = Date.now();
		// Node kills the process itself when the signal aborts or the timeout passes.
		const child = spawn(command, egressArgs(tool, args, proxy), {
			cwd: options.cwd,
			stdio: ["ignore", "pipe", "pipe"],
			env: { ...egressEnvironment(process.env, proxy), LC_ALL: "C.UTF-8" },
			signal: options.signal,
			timeout: timeoutMs,
			killSignal: "SIGKILL",
		});
		let stdout = "";
		let stderr = "";

		let consuming: Promise<void> = Promise.resolve();
		let consumerError: Error | null = null;
		const onBytes = options.onStdoutBytes;
		if (onBytes) {
			child.stdout.on("data", (chunk: Buffer) => {
				child.stdout.pause();
				consuming = consuming
					.then(() => (consumerError ? undefined : onBytes(chunk)))
					.catch((error: Error) => {
						consumerError ??= error;
						child.kill("SIGKILL");
					})
					.finally(() => child.stdout.resume());
			});
		} else {
			splitLines(child.stdout, (line) => {
				if (options.collectStdout !== false) stdout += `${line}\n`;
				options.onStdoutLine?.(line);
			});
		}
		splitLines(child.stderr, (line) => {
			stderr = (stderr + redactUrls(line) + "\n").slice(-STDERR_TAIL_CHARS);
			options.onStderrLine?.(line);
		});

		// Cancellation is also reported here (AbortError); "close" follows and says so.
		child.on("error", (error) => {
			if (error.name !== "AbortError")
				reject(new ProcessError(`${command} could not start: ${error.message}`, "spawn", null, ""));
		});
		child.on("close", async (code, signal) => {
			await consuming;
			if (consumerError) {
				reject(
					new ProcessError(
						`${command}'s output could not be read: ${consumerError.message}`,
						"exit",
						code,
						stderr,
					),
				);
			} else if (options.signal?.aborted) {
				reject(new ProcessError(`${command} was cancelled`, "aborted", code, stderr));
			} else if (signal === "SIGKILL" && Date.now() - started >= timeoutMs) {
				reject(
					new ProcessError(
						`${command} took longer than ${timeoutMs} ms in the ${job} job`,
						"timeout",
						code,
						stderr,
					),
				);
			} else if (code !== 0) {
				reject(
					new ProcessError(
						`${command} exited with code ${code}: ${lastLines(stderr, 3)}`,
						"exit",
						code,
						stderr,
					),
				);
			} else {
				resolve({ stdout, stderr });
			}
		});
	});
}

/**
 * The timeout spawn is given: Node refuses a fraction (757200.0000000002 failed every clip over
 * 30 s) and overflows past 2^31 - 1 ms, so both are mended here, whatever a job computed. NaN or a
 * value ≤ 0 has no sensible reading: it is reported as the bug it is, naming the job.
 */
function processTimeoutMs(timeoutMs: number, tool: string, job: string): number {
	if (!(timeoutMs > 0)) {
		throw new ProcessError(
			`Internal error in the render tier's ${job} job: it gave ${tool} an invalid timeout (${timeoutMs} ms). This is a bug in clipforge, not a problem with the video.`,
			"internal",
			null,
			"",
		);
	}
	return wholeMilliseconds(timeoutMs);
}

function splitLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
	let buffered = "";
	stream.setEncoding("utf8");
	stream.on("data", (chunk: string) => {
		buffered += chunk;
		let newline = buffered.search(/[\r\n]/);
		while (newline !== -1) {
			const line = buffered.slice(0, newline);
			buffered = buffered.slice(newline + 1);
			if (line.length > 0) onLine(line);
			newline = buffered.search(/[\r\n]/);
		}
	});
	stream.on("end", () => {
		if (buffered.length > 0) onLine(buffered);
	});
}

function lastLines(text: string, count: number): string {
	return text.trim().split("\n").slice(-count).join(" | ");
}
