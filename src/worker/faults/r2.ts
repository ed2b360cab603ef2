/**
 * R2's documented service errors (https://developers.cloudflare.com/r2/api/error-codes/: 10001
 * internal error and 10043 unavailable, "retry"; 10058 too many requests), thrown by a share of
 * `put`, `get` and multipart `uploadPart` calls when INJECT_FAULTS names r2. The binding throws
 * them as its own errors do: `put: … (10001)`.
 */
import { anyOf, drawFault, type FaultPlan } from "./plan";

const R2_FAULTS = [
	"We encountered an internal error. Please try again. (10001)",
	"Service is temporarily unavailable. (10043)",
	"Reduce your concurrent request rate for the same object. (10058)",
] as const;

function maybeFail(plan: FaultPlan, operation: string): void {
	const fault = anyOf(R2_FAULTS);
	if (drawFault(plan, "r2", `${operation}: ${fault}`)) throw new Error(`${operation}: ${fault}`);
}

function faultyUpload(upload: R2MultipartUpload, plan: FaultPlan): R2MultipartUpload {
	return new Proxy(upload, {
		get(target, property) {
			if (property === "uploadPart")
				return async (...args: Parameters<R2MultipartUpload["uploadPart"]>) => {
					maybeFail(plan, "uploadPart");
					return target.uploadPart(...args);
				};
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
}

/** `bucket` with the plan's share of its puts, gets and multipart parts failing. */
export function withR2Faults(bucket: R2Bucket, plan: FaultPlan): R2Bucket {
	return new Proxy(bucket, {
		get(target, property) {
			if (property === "put" || property === "get")
				return async (...args: unknown[]) => {
					maybeFail(plan, property);
					return (target[property] as (...a: unknown[]) => unknown)(...args);
				};
			if (property === "createMultipartUpload")
				return async (...args: Parameters<R2Bucket["createMultipartUpload"]>) =>
					faultyUpload(await target.createMultipartUpload(...args), plan);
			if (property === "resumeMultipartUpload")
				return (...args: Parameters<R2Bucket["resumeMultipartUpload"]>) =>
					faultyUpload(target.resumeMultipartUpload(...args), plan);
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
		},
	});
}
