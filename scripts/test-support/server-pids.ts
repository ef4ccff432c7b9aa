import { execFileSync } from "node:child_process";

/** The processes listening on TCP `port` (the Next.js server of an app instance). */
export function serverPids(port: number): number[] {
  return execFileSync("fuser", [`${port}/tcp`], { stdio: ["ignore", "pipe", "ignore"] })
    .toString()
    .trim()
    .split(/\s+/)
    .map(Number);
}
