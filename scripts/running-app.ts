// Where the app of a running `npm start` answers, for commands run from a second terminal
// (`npm run devnet:pay`): the start records its address in the data directory, as it does its
// embedded database's (scripts/database.ts), so they find it on whatever PORT it was given.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { config } from "../lib/config";

const appFile = () => path.join(path.resolve(config().dataDir), "app.json");

/** Records the app's address for other commands; returns the function that forgets it. */
export async function recordRunningApp(url: string): Promise<() => Promise<void>> {
  // A start without an embedded database (a DATABASE_URL, an e2e instance) may not have made it yet.
  await mkdir(path.dirname(appFile()), { recursive: true });
  await writeFile(appFile(), JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
  return () => rm(appFile(), { force: true });
}

/**
 * The app to call: the one PORT or SERVICE_BASE_URL names when set here; otherwise the running
 * `npm start`'s over the same data directory; otherwise the default address (port 3000).
 */
export async function runningAppUrl(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.PORT || env.SERVICE_BASE_URL) return config().baseUrl;
  const recorded = await readFile(appFile(), "utf8").catch(() => null);
  if (!recorded) return config().baseUrl;
  const { url, pid } = JSON.parse(recorded) as { url: string; pid: number };
  try {
    process.kill(pid, 0);
  } catch {
    return config().baseUrl;
  }
  return url;
}
