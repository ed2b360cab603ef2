export { ProcessVideoWorkflow, type ProcessVideoParams } from "./process-video";
