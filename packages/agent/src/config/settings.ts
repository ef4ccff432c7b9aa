import { configHome } from "./config-home";

export type Settings = {
  apiBaseUrl: string;
  payBaseUrl: string | undefined;
  apiKey: string | undefined;
  webhookSecret: string | undefined;
  configHome: string;
};

// Local development default; a deployed service's users set SERVICE_API_BASE_URL ({base_url}/api).
export const defaultApiBaseUrl = "http://localhost:3000/api";

/** The kit's configuration from the environment (packages/agent/README.md). */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return {
    apiBaseUrl: (env.SERVICE_API_BASE_URL || defaultApiBaseUrl).replace(/\/+$/, ""),
    payBaseUrl: env.SERVICE_PAY_BASE_URL?.replace(/\/+$/, "") || undefined,
    apiKey: env.SERVICE_API_KEY || undefined,
    webhookSecret: env.SERVICE_WEBHOOK_SECRET || undefined,
    configHome: configHome(env),
  };
}

/** Coding agents run commands without a person at the keyboard: never prompt or open a browser. */
export function runningInAgent(env: NodeJS.ProcessEnv = process.env): boolean {
  return ["CLAUDECODE", "CURSOR_AGENT", "AI_AGENT", "CODEX_SANDBOX", "GEMINI_CLI", "CI"].some((name) =>
    Boolean(env[name]),
  );
}

/** A browser opens only for a person at a terminal: not in a pipe, not inside an agent. */
export function mayOpenBrowser(isTTY: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return isTTY === true && !runningInAgent(env);
}
