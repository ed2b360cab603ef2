export { ProcessVideoWorkflow } from "./process-video";
export type { ProcessVideoParams } from "./params";
