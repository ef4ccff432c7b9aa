// The MCP catalogue shared by the remote server (/mcp) and the local one (`crypto-checkout mcp`).
// It imports only zod and node built-ins: the published agent kit must not depend on the app.

export * from "./arguments";
export * from "./confirmation";
export * from "./describe-tool";
export * from "./knowledge";
export * from "./prompts";
export * from "./resources";
export * from "./results";
export * from "./tools";
