import { readFile } from "node:fs/promises";
import path from "node:path";

let script: Promise<Buffer> | undefined;

/** Scalar's standalone bundle, served from the installed package. */
export async function GET() {
  script ??= readFile(
    path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js"),
  );
  return new Response(new Uint8Array(await script), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
