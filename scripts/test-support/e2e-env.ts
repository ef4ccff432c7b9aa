import path from "node:path";

/** Where scripts/e2e-server.ts records the settings of the app it started on `port`. */
export function e2eEnvFile(port: number): string {
  return path.resolve(import.meta.dirname, "../../test-results", `e2e-env-${port}.json`);
}
