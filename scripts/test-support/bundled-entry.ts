// A TypeScript entry that tests start as processes of their own, compiled once per test file into
// one ES module that plain Node runs. Started with `--import tsx`, each process compiled and
// resolved every module of lib/ it loads again (about 1.5 CPU-seconds of a settler's 3.5 on this
// repo's 2-core machine); the bundle is the same code compiled by the same esbuild tsx uses. Its
// packages stay outside it, imported from node_modules by the path Node would take, and it can be
// written anywhere.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Esbuild from "esbuild";
import { afterAll } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const bundles = new Map<string, Promise<string>>();
const directories: string[] = [];
// Registered as the test file loads this module (Vitest's workers end without running exit handlers).
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

async function bundle(entry: string) {
  const esbuild: typeof Esbuild = createRequire(import.meta.resolve("tsx"))("esbuild");
  const directory = await mkdtemp(path.join(tmpdir(), "cc-test-entry-"));
  directories.push(directory);
  const outfile = path.join(directory, `${path.basename(entry, ".ts")}.mjs`);
  await esbuild.build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    // The agent kit's sources, as tsconfig.json's customConditions and vitest.config.ts resolve it.
    conditions: ["crypto-checkout-source"],
    logLevel: "warning",
    plugins: [
      {
        name: "packages-outside",
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === "inner") return undefined;
            const resolved = await build.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              importer: args.importer,
              pluginData: "inner",
            });
            if (resolved.errors.length > 0) return undefined;
            if (resolved.external) return { path: args.path, external: true };
            // The repository's own modules ("@/…", the agent kit's sources) go in the bundle.
            if (!resolved.path.includes(`${path.sep}node_modules${path.sep}`)) return { path: resolved.path };
            return { path: resolved.path, external: true };
          });
          // A module that finds files from where it lives (package.json, resources/, the
          // generated Prisma client's directory) still does: its import.meta is its source file's.
          build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
            if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
            const source = await readFile(args.path, "utf8");
            const own: Record<string, string> = {
              url: pathToFileURL(args.path).href,
              dirname: path.dirname(args.path),
              filename: args.path,
            };
            return {
              contents: source.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: string) =>
                JSON.stringify(own[key]),
              ),
              loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
            };
          });
        },
      },
    ],
  });
  // Its service process ends here, its CPU counted with this one's.
  await esbuild.stop();
  return outfile;
}

/** The bundle of `entry` (a path from the repository's root), built on the first call in this process. */
export function bundledEntry(entry: string): Promise<string> {
  let built = bundles.get(entry);
  if (!built) {
    built = bundle(entry);
    bundles.set(entry, built);
  }
  return built;
}
