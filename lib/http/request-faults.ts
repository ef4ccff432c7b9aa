import { AsyncLocalStorage } from "node:async_hooks";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import { processWide } from "../process-wide";

// A page (server component) that fails because the database is down makes Next.js answer 500,
// and a page cannot choose its error status. The server (scripts/serve.ts) runs each request in
// this context; Next.js reports the page's error (instrumentation.ts, onRequestError) into it,
// and the server then sends that 500 as a 503 with Retry-After, as the API answers
// (lib/errors.ts). Process-wide: the server and Next.js's bundles load their own copies of this.

type Faults = { databaseUnavailable: boolean };

const storage = processWide("request-faults", () => new AsyncLocalStorage<Faults>());

/** Runs one request's handling in a context that collects the faults reported while it runs. */
export function collectRequestFaults<T>(handle: () => T): T {
  return storage.run({ databaseUnavailable: false }, handle);
}

/** Notes an error Next.js reported for the current request. */
export function reportRequestError(error: unknown): void {
  const faults = storage.getStore();
  if (faults && isDatabaseUnavailable(error)) faults.databaseUnavailable = true;
}

/** Whether the current request failed because the database was unavailable. */
export function databaseUnavailableHere(): boolean {
  return storage.getStore()?.databaseUnavailable ?? false;
}
