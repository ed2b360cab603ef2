/**
 * The only code in the render tier that starts a process: node:child_process `spawn` with its own
 * `signal`, and a timeout that counts only the time the process could run (a job under a CPU slot
 * may be paused, cpu-hold.ts). Arguments are always an array (never a shell string), so user text cannot
 * become shell syntax; every run has a timeout and can be cancelled through an AbortSignal (the
 * HTTP request closing, say). Every process reaches the network only through the tier's egress
 * proxy (egress-args.ts: its environment, and ffmpeg's and ffprobe's input flags), and what it
 * prints is kept with every URL's query string and credentials removed (redact.ts), so a signed
 * URL never ends up in an error message.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { wholeMilliseconds } from "@clipforge/contract";
import { afterRunningMs, currentCpuHold } from "./cpu-hold.ts";
import { egressArgs, egressEnvironment } from "../egress/args.ts";
import { egressProxy } from "../egress/proxy.ts";
import { runningJob, runningJobName } from "./job-context.ts";
import { chargeExitedProcess } from "./job-usage.ts";
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
	const tool = toolOf(command);
	const job = runningJobName();
	const timeoutMs = processTimeoutMs(options.timeoutMs, tool === "other" ? command : tool, job);
	return new Promise((resolve, reject) => {
		// Node kills the process itself when the signal aborts.
		const child = spawn(command, egressArgs(tool, args, proxy), {
			cwd: options.cwd,
			stdio: ["ignore", "pipe", "pipe"],
			env: { ...egressEnvironment(process.env, proxy), LC_ALL: "C.UTF-8" },
			signal: options.signal,
			killSignal: "SIGKILL",
		});
		// Under a CPU slot the process is paused and continued with the job's hold, and its timeout
		// counts only the time it could run.
		const hold = currentCpuHold();
		const detach = hold?.track(child);
		let timedOut = false;
		const cancelTimeout = afterRunningMs(timeoutMs, hold, () => {
			timedOut = true;
			child.kill("SIGKILL");
		});
		const settled = () => {
			cancelTimeout();
			detach?.();
		};
		const output = readOutput(child, options);
		// Its CPU, charged to the job that started it once it has exited (job-usage.ts).
		const context = runningJob();
		child.on("exit", () => chargeExitedProcess(context));

		// Cancellation is also reported here (AbortError); "close" follows and says so.
		child.on("error", (error) => {
			if (error.name === "AbortError") return;
			settled();
			reject(new ProcessError(`${command} could not start: ${error.message}`, "spawn", null, ""));
		});
		child.on("close", async (code) => {
			settled();
			await output.consumed();
			const failure = closeError({ command, job, timeoutMs, options, output, code, timedOut });
			if (failure) reject(failure);
			else resolve({ stdout: output.stdout(), stderr: output.stderr() });
		});
	});
}

type Tool = "ffmpeg" | "ffprobe" | "yt-dlp" | "other";

/** Which known tool a command is: its egress flags depend on it. */
function toolOf(command: string): Tool {
	if (command === tools.ffmpeg) return "ffmpeg";
	if (command === tools.ffprobe) return "ffprobe";
	if (command === tools.ytDlp) return "yt-dlp";
	return "other";
}

interface Output {
	stdout(): string;
	/** The redacted tail of stderr. */
	stderr(): string;
	/** Resolves when the last binary chunk was consumed. */
	consumed(): Promise<void>;
	/** The binary consumer's first error, if any. */
	consumerError(): Error | null;
}

/** Wires the child's stdout (lines or bytes, with backpressure) and stderr (a redacted tail) to the options. */
function readOutput(child: ChildProcessByStdio<null, Readable, Readable>, options: RunOptions): Output {
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
	return {
		stdout: () => stdout,
		stderr: () => stderr,
		consumed: () => consuming,
		consumerError: () => consumerError,
	};
}

/** Why a closed process failed, in the order that explains it best; null when it succeeded. */
function closeError(closed: {
	command: string;
	job: string;
	timeoutMs: number;
	options: RunOptions;
	output: Output;
	code: number | null;
	timedOut: boolean;
}): ProcessError | null {
	const { command, code } = closed;
	const stderr = closed.output.stderr();
	const consumerError = closed.output.consumerError();
	if (consumerError)
		return new ProcessError(
			`${command}'s output could not be read: ${consumerError.message}`,
			"exit",
			code,
			stderr,
		);
	if (closed.options.signal?.aborted) return new ProcessError(`${command} was cancelled`, "aborted", code, stderr);
	if (closed.timedOut) {
		const message = `${command} took longer than ${closed.timeoutMs} ms in the ${closed.job} job`;
		return new ProcessError(message, "timeout", code, stderr);
	}
	if (code !== 0)
		return new ProcessError(`${command} exited with code ${code}: ${lastLines(stderr, 3)}`, "exit", code, stderr);
	return null;
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
