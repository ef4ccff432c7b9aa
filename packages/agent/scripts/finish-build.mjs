// After `tsc`: make dist/ runnable by Node's ESM loader and complete.
// - The sources import relative modules without an extension (the catalogue is also bundled
//   into the app by Turbopack, which does not map `./x.js` to `./x.ts`); Node needs the
//   extension, so relative specifiers in dist get `.js` (or `/index.js` for a folder), in the
//   declarations too (TypeScript maps `./x.js` to `./x.d.ts` for consumers that resolve like Node).
// - The bin must be executable.
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");

function* javascriptFiles(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* javascriptFiles(file);
    else if (/\.(js|d\.ts)$/.test(entry.name)) yield file;
  }
}

const specifier = /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']*)\2/g;

for (const file of javascriptFiles(dist)) {
  const source = readFileSync(file, "utf8");
  const rewritten = source.replace(specifier, (match, before, quote, target) => {
    if (/\.(m?js|json)$/.test(target)) return match;
    const resolved = path.resolve(path.dirname(file), target);
    if (existsSync(`${resolved}.js`)) return `${before}${quote}${target}.js${quote}`;
    if (existsSync(resolved) && statSync(resolved).isDirectory())
      return `${before}${quote}${target}/index.js${quote}`;
    throw new Error(`${path.relative(root, file)}: cannot resolve ${target}`);
  });
  if (rewritten !== source) writeFileSync(file, rewritten);
}

chmodSync(path.join(dist, "cli.js"), 0o755);
