import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const inputs = [
  "app",
  "components",
  "lib",
  "inngest",
  "packages/agent/src",
  "packages/agent/package.json",
  "public",
  "proxy.ts",
  "next.config.ts",
  "package.json",
  "tsconfig.json",
  "postcss.config.mjs",
];

function newestMtime(target: string): number {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce(
    (newest, name) => Math.max(newest, newestMtime(path.join(target, name))),
    stats.mtimeMs,
  );
}

/** True when there is no production build or a source changed after it was made. */
export function buildIsStale(): boolean {
  const builtAt = newestMtime(path.join(root, ".next/BUILD_ID"));
  if (builtAt === 0) return true;
  return inputs.some((input) => newestMtime(path.join(root, input)) > builtAt);
}

export function buildIfNeeded(): void {
  if (!buildIsStale()) return;
  console.log("Building the app (first start or sources changed)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}
