import { selfCheck } from "/work/wt/production/containers/render/src/self-check.ts";
console.log(JSON.stringify(await selfCheck(), null, 1));
